// The charts of the audit page (html_charts.h).
#include "report/html_charts.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>
#include <tuple>
#include <vector>

namespace ftclos::html_charts {

// Integers as integers, the rest with three significant digits.
std::string number(double value) {
  if (std::abs(value - std::round(value)) < 1e-9 && std::abs(value) < 1e15)
    return fmt::format("{}", static_cast<long long>(std::llround(value)));
  return fmt::format("{:.3g}", value);
}

// "Level 2 → 3 (up)": where the channels of a level and direction lead.
std::string level_title(int level, const std::string& direction) {
  if (direction == "up") return fmt::format("Level {} \u2192 {} (up)", level, level + 1);
  if (direction == "down") return fmt::format("Level {} \u2192 {} (down)", level, level - 1);
  return fmt::format("Level {} ({})", level, direction);
}

namespace {

// Sequential palette (ColorBrewer YlOrRd), pale (light load) to dark red
// (heavy load); index 0 is idle.
constexpr std::array<const char*, 10> kColours = {"#dde1e6", "#ffffcc", "#ffeda0", "#fed976", "#feb24c",
                                                  "#fd8d3c", "#fc4e2a", "#e31a1c", "#bd0026", "#800026"};
constexpr int kBuckets = 9;  // loaded buckets 1..9

// Maps (0, max] onto buckets 1..9 in proportion, so a colour twice as dark
// is about twice the load: small differences between channels stay small.
struct Scale {
  double max = 0;

  int bucket(double value) const {
    if (value <= 0) return 0;
    return std::clamp(static_cast<int>(std::ceil(value / max * kBuckets - 1e-9)), 1, kBuckets);
  }
};

// A heatmap colouring: which number of a channel, and its scale.
struct Metric {
  const char* id;     // of its radio button and legend
  const char* label;  // for people
  char prefix;        // of the cell classes: p3 is bucket 3 by SD pairs
  double (*value)(const ReportChannel&);
  Scale scale;
};

Scale scale_of(const std::vector<ReportChannel>& channels, double (*value)(const ReportChannel&)) {
  Scale scale;
  for (const ReportChannel& channel : channels) scale.max = std::max(scale.max, value(channel));
  return scale;
}

std::vector<Metric> metrics_of(const std::vector<ReportChannel>& channels) {
  std::vector<Metric> metrics = {
      // Matching first (the default view): on an evenly loaded tree every
      // channel carries as many pairs, and only the matching tells them apart.
      {"by-matching", "matching (worst-case flows)", 'm', [](const ReportChannel& c) { return c.matching; }, {}},
      {"by-pairs", "SD pairs", 'p', [](const ReportChannel& c) { return static_cast<double>(c.pairs); }, {}},
  };
  for (Metric& metric : metrics) metric.scale = scale_of(channels, metric.value);
  return metrics;
}

// Channel groups: one heatmap and one histogram per level and direction.

struct Group {
  int level = 0;
  std::string direction;
  std::vector<int> channels;  // indices into AuditReportData::channels

  std::string title() const { return level_title(level, direction); }
};

// In the order a packet meets them: up by rising level, side, then down by falling level.
std::vector<Group> channel_groups(const std::vector<ReportChannel>& channels) {
  auto key = [](const ReportChannel& c) {
    const int rank = c.direction == "up" ? 0 : c.direction == "down" ? 2 : 1;
    return std::make_tuple(rank, rank == 2 ? -c.level : c.level, c.direction);
  };
  std::map<decltype(key(channels[0])), Group> groups;
  for (int i = 0; i < static_cast<int>(channels.size()); ++i) {
    Group& group = groups[key(channels[i])];
    group.level = channels[i].level;
    group.direction = channels[i].direction;
    group.channels.push_back(i);
  }
  std::vector<Group> out;
  for (auto& [k, group] : groups) out.push_back(std::move(group));
  return out;
}

// Switches of a group in the order their channels come, and its ports sorted.
struct Grid {
  std::vector<std::string> switches;
  std::map<std::string, int> column;
  std::vector<int> ports;
  std::map<int, int> row;
};

Grid grid_of(const AuditReportData& data, const Group& group) {
  Grid grid;
  std::set<int> ports;
  for (const int i : group.channels) {
    const ReportChannel& c = data.channels[i];
    if (grid.column.emplace(c.switch_name, static_cast<int>(grid.switches.size())).second)
      grid.switches.push_back(c.switch_name);
    ports.insert(c.port);
  }
  grid.ports.assign(ports.begin(), ports.end());
  for (int r = 0; r < static_cast<int>(grid.ports.size()); ++r) grid.row[grid.ports[r]] = r;
  return grid;
}

constexpr int kPlotWidth = 1180;  // px of cells per heatmap band (fits a 1400 px window)
constexpr int kMaxLabel = 14;     // characters of a switch name under a column

std::string short_label(const std::string& name) {
  return name.size() <= kMaxLabel ? name : name.substr(0, kMaxLabel - 1) + "\u2026";
}

// One switch x port grid: a column per switch (wrapped into bands when there
// are many), a row per egress port, a cell per channel.
void write_heatmap(Out out, const AuditReportData& data, const Group& group, const std::vector<Metric>& metrics) {
  const Grid grid = grid_of(data, group);
  const int columns = static_cast<int>(grid.switches.size());
  const int rows = static_cast<int>(grid.ports.size());
  const int cell = std::clamp(kPlotWidth / std::max(columns, 1), 6, 24);
  const int fit = std::max(1, kPlotWidth / cell);
  const int bands = (columns + fit - 1) / fit;
  const int per_band = (columns + bands - 1) / bands;  // bands of even width
  const int font = 10;
  const int column_step = (font + 3 + cell - 1) / cell;  // labels at least one line apart
  const int row_step = (font + 1 + cell - 1) / cell;
  size_t longest = 0;
  for (int x = 0; x < columns; x += column_step) longest = std::max(longest, short_label(grid.switches[x]).size());
  const int label_height = 8 + static_cast<int>(std::ceil(static_cast<double>(longest) * font * 0.62));
  const int left = 46;
  const int band_height = label_height + rows * cell + 14;
  const int width = left + std::min(columns, per_band) * cell + 8;
  const int height = bands * band_height;

  fmt::format_to(out, "<h3>{} &middot; {} channels</h3>\n<div class=\"heat\">\n", html_escape(group.title()),
                 group.channels.size());
  fmt::format_to(out,
                 "<svg class=\"heatmap\" width=\"{0}\" height=\"{1}\" "
                 "viewBox=\"0 0 {0} {1}\" font-size=\"{2}\" role=\"img\">\n",
                 width, height, font);
  std::string worst_outline;
  for (int band = 0; band < bands; ++band) {
    const int first = band * per_band, last = std::min(columns, first + per_band);
    const int top = band * band_height + label_height;
    fmt::format_to(out, "<text x=\"{}\" y=\"{}\" text-anchor=\"end\" fill=\"#59636e\">port</text>\n", left - 6,
                   top - 12);
    for (int x = first; x < last; x += column_step)
      fmt::format_to(out, "<text transform=\"translate({},{}) rotate(-90)\">{}</text>\n",
                     left + (x - first) * cell + cell / 2 + font / 3, top - 4,
                     html_escape(short_label(grid.switches[x])));
    for (int r = 0; r < rows; r += row_step)
      fmt::format_to(out, "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n", left - 6,
                     top + r * cell + cell / 2 + font / 3, grid.ports[r]);
    for (const int i : group.channels) {
      const ReportChannel& c = data.channels[i];
      const int x = grid.column.at(c.switch_name);
      if (x < first || x >= last) continue;
      const int px = left + (x - first) * cell, py = top + grid.row.at(c.port) * cell;
      fmt::format_to(out, "<rect class=\"c");
      for (const Metric& metric : metrics)
        fmt::format_to(out, " {}{}", metric.prefix, metric.scale.bucket(metric.value(c)));
      fmt::format_to(out,
                     "\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"><title>{} port {} ({}): {} SD pairs, {} sources, "
                     "{} destinations, matching {}{}</title></rect>\n",
                     px, py, cell - 1, cell - 1, html_escape(c.switch_name), c.port, html_escape(group.title()),
                     c.pairs, c.sources, c.destinations, number(c.matching),
                     i == data.worst_channel ? " \u2014 the worst link" : "");
      if (i == data.worst_channel)
        worst_outline = fmt::format("<rect class=\"worst\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>\n", px - 1,
                                    py - 1, cell + 1, cell + 1);
    }
  }
  fmt::format_to(out, "{}</svg>\n</div>\n", worst_outline);
}

// The non-empty buckets of a metric with the values that fell in them.
void write_legend(Out out, const AuditReportData& data, const Metric& metric) {
  std::array<std::pair<double, double>, kBuckets + 1> range;
  std::array<bool, kBuckets + 1> used{};
  for (const ReportChannel& c : data.channels) {
    const double v = metric.value(c);
    const int b = metric.scale.bucket(v);
    range[b] = used[b] ? std::pair{std::min(range[b].first, v), std::max(range[b].second, v)} : std::pair{v, v};
    used[b] = true;
  }
  fmt::format_to(out, "<div class=\"legend {}\"><b>{}:</b>\n", metric.id, metric.label);
  for (int b = 0; b <= kBuckets; ++b) {
    if (!used[b]) continue;
    const auto [lo, hi] = range[b];
    const std::string text = b == 0 ? "0 (idle)" : lo == hi ? number(lo) : number(lo) + "\u2013" + number(hi);
    fmt::format_to(out, "<span><span class=\"sw\" style=\"background:{}\"></span>{}</span>\n", kColours[b], text);
  }
  if (data.worst_channel >= 0)
    fmt::format_to(out, "<span><span class=\"sw\" style=\"border:3px solid #0a84ff\"></span>worst link</span>\n");
  fmt::format_to(out, "</div>\n");
}


// A bar of a histogram: channels carrying from..to SD pairs.
struct Bin {
  long from = 0, to = 0;
  int channels = 0;
};

// One bin per value when the values span few, else about 20 equal bins.
std::vector<Bin> bins_of(const std::vector<long>& values) {
  const auto [lo, hi] = std::ranges::minmax(values);
  const long span = hi - lo + 1;
  const long width = span <= 30 ? 1 : (span + 19) / 20;
  std::vector<Bin> bins((span + width - 1) / width);
  for (size_t k = 0; k < bins.size(); ++k) {
    bins[k].from = lo + static_cast<long>(k) * width;
    bins[k].to = bins[k].from + width - 1;
  }
  for (const long v : values) ++bins[(v - lo) / width].channels;
  return bins;
}

// A round step (1, 2, 2.5 or 5 times a power of ten) giving about `ticks` ticks up to `top`.
double nice_step(double top, int ticks) {
  const double raw = std::max(top, 1.0) / ticks;
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (const double m : {1.0, 2.0, 2.5, 5.0})
    if (m * power >= raw) return std::max(1.0, m * power);
  return std::max(1.0, 10 * power);
}

void write_histogram(Out out, const AuditReportData& data, const Group& group) {
  std::vector<long> pairs;
  for (const int i : group.channels) pairs.push_back(data.channels[i].pairs);
  const std::vector<Bin> bins = bins_of(pairs);
  constexpr int kWidth = 400, kHeight = 240, kLeft = 62, kRight = 16, kTop = 14, kBottom = 50;
  constexpr double kPlotW = kWidth - kLeft - kRight, kPlotH = kHeight - kTop - kBottom;
  const int nbins = static_cast<int>(bins.size());
  const int slots = std::max(nbins, 8);  // a lone bar stays a bar, not a wall
  const double slot = kPlotW / slots;
  const double offset = kLeft + (slots - nbins) / 2 * slot;
  int most = 0;
  size_t widest = 0;
  for (const Bin& bin : bins) most = std::max(most, bin.channels), widest = std::max(widest, number(bin.from).size());
  const double step = nice_step(most, 5);
  const double top = std::ceil(most / step) * step;
  const int label_step = std::max(static_cast<int>(std::ceil(widest * 6.5 / slot)), (nbins + 5) / 6);

  fmt::format_to(out, "<div class=\"chart\"><h3>{}</h3>\n", html_escape(group.title()));
  fmt::format_to(out, "<svg class=\"histogram\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" font-size=\"11\" "
                      "role=\"img\">\n", kWidth, kHeight);
  for (double y = 0; y <= top + 1e-9; y += step) {
    const double py = kTop + kPlotH - y / top * kPlotH;
    fmt::format_to(out, "<line class=\"grid\" x1=\"{}\" x2=\"{}\" y1=\"{:.1f}\" y2=\"{:.1f}\"/>", kLeft, kLeft + kPlotW,
                   py, py);
    fmt::format_to(out, "<text x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>\n", kLeft - 6, py + 4, number(y));
  }
  for (int k = 0; k < nbins; ++k) {
    const Bin& bin = bins[k];
    const double x = offset + k * slot, h = bin.channels / top * kPlotH;
    const std::string range = bin.from == bin.to ? number(bin.from) : fmt::format("{}\u2013{}", bin.from, bin.to);
    if (bin.channels > 0)
      fmt::format_to(out,
                     "<rect class=\"bar\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\"><title>{} SD "
                     "pairs: {} channels</title></rect>\n",
                     x + 1, kTop + kPlotH - h, std::max(slot - 2, 1.0), h, range, bin.channels);
    if (k % label_step == 0)
      fmt::format_to(out, "<text x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", x + slot / 2,
                     kTop + kPlotH + 16, number(bin.from));
  }
  fmt::format_to(out, "<line class=\"axis\" x1=\"{0}\" x2=\"{0}\" y1=\"{1}\" y2=\"{2}\"/>", kLeft, kTop, kTop + kPlotH);
  fmt::format_to(out, "<line class=\"axis\" x1=\"{0}\" x2=\"{1}\" y1=\"{2}\" y2=\"{2}\"/>\n", kLeft, kLeft + kPlotW,
                 kTop + kPlotH);
  const long width = bins.front().to - bins.front().from + 1;
  fmt::format_to(out, "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">SD pairs per channel{}</text>\n",
                 kLeft + kPlotW / 2, kHeight - 8, width > 1 ? fmt::format(" (bins of {})", width) : "");
  fmt::format_to(out, "<text transform=\"translate(14,{}) rotate(-90)\" text-anchor=\"middle\">channels</text>\n",
                 kTop + kPlotH / 2);
  fmt::format_to(out, "</svg></div>\n");
}

}  // namespace

// The colour rules of the heatmap: each metric's radio button, when checked,
// colours the cells by that metric's bucket classes and shows its legend.
void write_chart_style(Out out, const AuditReportData& data) {
  const std::vector<Metric> metrics = metrics_of(data.channels);
  for (const Metric& metric : metrics) {
    fmt::format_to(out, "#{0}:checked ~ .legend.{0} {{ display: flex; }}\n", metric.id);
    for (int b = 0; b <= kBuckets; ++b)
      fmt::format_to(out, "#{}:checked ~ .heat rect.{}{} {{ fill: {}; }}\n", metric.id, metric.prefix, b, kColours[b]);
  }
}

// (b) Where the load sits.
void write_heatmaps(Out out, const AuditReportData& data) {
  const std::vector<Group> groups = channel_groups(data.channels);
  const std::vector<Metric> metrics = metrics_of(data.channels);
  fmt::format_to(out, "<section id=\"heatmap\">\n<h2>Link load by level</h2>\n");
  fmt::format_to(out,
                 "<p class=\"sub\">Every directed switch-to-switch channel is a cell: a column per sending switch, a "
                 "row per egress port. <i>SD pairs</i> counts the source-destination pairs routed over the channel; "
                 "<i>matching</i> is the most of them one permutation can use at once (its worst-case contention). "
                 "Hover a cell for its numbers.</p>\n");
  if (data.channels.empty()) {
    fmt::format_to(out, "<p>The fabric has no switch-to-switch channels.</p>\n</section>\n");
    return;
  }
  // The radio buttons, legends and maps are siblings so the CSS can reach from one to the others.
  fmt::format_to(out, "<span class=\"toggle\">Colour by:</span>\n");
  for (size_t i = 0; i < metrics.size(); ++i)
    fmt::format_to(out, "<input type=\"radio\" name=\"metric\" id=\"{0}\"{1}><label class=\"toggle\" for=\"{0}\">{2}</label>\n",
                   metrics[i].id, i == 0 ? " checked" : "", metrics[i].label);
  for (const Metric& metric : metrics) write_legend(out, data, metric);
  for (const Group& group : groups) write_heatmap(out, data, group, metrics);
  fmt::format_to(out, "</section>\n");
}

// (c) How evenly each level spreads its pairs.
void write_histograms(Out out, const AuditReportData& data) {
  const std::vector<Group> groups = channel_groups(data.channels);
  fmt::format_to(out, "<section id=\"histograms\">\n<h2>SD pairs per channel</h2>\n");
  if (groups.empty()) {
    fmt::format_to(out, "<p>No switch-to-switch channels.</p>\n</section>\n");
    return;
  }
  fmt::format_to(out, "<table>\n<tr><th>channels</th><th class=\"n\">count</th><th class=\"n\">idle</th>"
                      "<th class=\"n\">SD pairs min</th><th class=\"n\">mean</th><th class=\"n\">max</th>"
                      "<th class=\"n\">worst matching</th></tr>\n");
  for (const Group& group : groups) {
    long low = 0, high = 0, idle = 0;
    double sum = 0, worst = 0;
    for (size_t k = 0; k < group.channels.size(); ++k) {
      const ReportChannel& c = data.channels[group.channels[k]];
      low = k == 0 ? c.pairs : std::min(low, c.pairs);
      high = std::max(high, c.pairs);
      idle += c.pairs == 0;
      sum += static_cast<double>(c.pairs);
      worst = std::max(worst, c.matching);
    }
    fmt::format_to(out,
                   "<tr><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>"
                   "<td class=\"n\">{:.1f}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>\n",
                   html_escape(group.title()), group.channels.size(), idle, low,
                   sum / static_cast<double>(group.channels.size()), high, number(worst));
  }
  fmt::format_to(out, "</table>\n<div class=\"charts\">\n");
  for (const Group& group : groups) write_histogram(out, data, group);
  fmt::format_to(out, "</div>\n</section>\n");
}

}  // namespace ftclos::html_charts
