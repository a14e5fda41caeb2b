// The charts of the audit page (html_report.h): per level and direction a
// heatmap of its switch-to-switch channels (a column per switch, a row per
// egress port, coloured by SD pairs or by matching, picked with a CSS-only
// toggle) and a histogram of SD pairs per channel, as inline SVG.
#pragma once

#include <iterator>
#include <string>

#include "report/html_report.h"

namespace ftclos::html_charts {

using Out = std::back_insert_iterator<std::string>;

/// Integers as integers, the rest with three significant digits.
std::string number(double value);
/// "Level 2 → 3 (up)": where the channels of a level and direction lead.
std::string level_title(int level, const std::string& direction);

/// The CSS that colours the heatmap cells by the metric chosen.
void write_chart_style(Out out, const AuditReportData& data);
/// Section (b): the heatmaps, with the metric toggle and legends.
void write_heatmaps(Out out, const AuditReportData& data);
/// Section (c): a summary table and a histogram per level and direction.
void write_histograms(Out out, const AuditReportData& data);

}  // namespace ftclos::html_charts
