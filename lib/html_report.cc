#include "html_report.h"

#include "detect_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <iterator>
#include <map>
#include <set>
#include <tuple>

#include "deviation.h"
#include "levels.h"

namespace ftclos {

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

AuditReportData fabric_report_data(const Fabric& fabric, const Detection& detection) {
  AuditReportData data;
  data.detailed = false;
  for (const FamilyMatch& family : detection.families) data.families.push_back({family.name, params_text(family)});
  data.unknown_reason = detection.unknown_reason;
  data.hosts = fabric.count(NodeType::kCa);
  data.switches = fabric.count(NodeType::kSwitch);
  data.levels = detection.levels.height;
  data.updown_routable = detection.updown_routable;
  data.degraded = detection.degraded();
  for (const Deviation& deviation : detection.deviations()) data.deviations.push_back(describe(fabric, deviation));
  return data;
}

AuditReportData audit_report_data(const Fabric& fabric, const Detection& detection, const Correctness& correctness,
                                  const Contention& contention) {
  AuditReportData data = fabric_report_data(fabric, detection);
  data.detailed = true;
  data.correctness = correctness;
  data.worst_case = contention.worst_case;
  data.exact = contention.exact;
  for (const auto& [source, destination] : contention.witness)
    data.witness.emplace_back(fabric.node(source).display_name(), fabric.node(destination).display_name());
  data.notes = contention.notes;

  // Idle channels matter as much as hot ones (a scheme that leaves links
  // unused shows here), so every cabled switch-to-switch port gets a cell.
  std::map<PortRef, const LinkLoad*> loads;
  for (const LinkLoad& link : contention.links) loads[link.channel] = &link;
  for (int x = 0; x < fabric.size(); ++x) {
    const Node& node = fabric.node(x);
    if (!node.is_switch()) continue;
    for (int p = 1; p <= node.num_ports; ++p) {
      const PortRef peer = node.ports[p].peer;
      if (!peer.valid() || !fabric.node(peer.node).is_switch()) continue;
      ReportChannel channel{node.display_name(), p, detection.levels.of[x],
                            direction_name(direction(fabric, detection.levels, {x, p}))};
      if (const auto it = loads.find({x, p}); it != loads.end()) {
        channel.pairs = it->second->pairs;
        channel.sources = it->second->sources;
        channel.destinations = it->second->destinations;
        channel.matching = it->second->matching;
        if (it->first == contention.worst_link) data.worst_channel = static_cast<int>(data.channels.size());
      }
      data.channels.push_back(std::move(channel));
    }
  }
  return data;
}

namespace {

// ---- Formatting ----

using Out = std::back_insert_iterator<std::string>;

// Integers as integers, the rest with three significant digits.
std::string number(double value) {
  if (std::abs(value - std::round(value)) < 1e-9 && std::abs(value) < 1e15)
    return fmt::format("{}", static_cast<long long>(std::llround(value)));
  return fmt::format("{:.3g}", value);
}

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

// ---- Channel groups: one heatmap and one histogram per level and direction ----

// "Level 2 → 3 (up)": where the channels of a level and direction lead.
std::string level_title(int level, const std::string& direction) {
  if (direction == "up") return fmt::format("Level {} \u2192 {} (up)", level, level + 1);
  if (direction == "down") return fmt::format("Level {} \u2192 {} (down)", level, level - 1);
  return fmt::format("Level {} ({})", level, direction);
}

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

// ---- Page parts ----

constexpr const char* kStyle = R"(
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "DejaVu Sans", sans-serif;
  margin: 24px 32px; color: #1f2328; background: #fff; line-height: 1.45; max-width: 1360px; }
h1 { font-size: 26px; margin: 0 0 2px; }
h2 { font-size: 20px; margin: 34px 0 10px; padding-bottom: 4px; border-bottom: 1px solid #d0d7de; }
h3 { font-size: 15px; margin: 18px 0 6px; }
p, li { font-size: 14px; }
.sub { color: #59636e; font-size: 14px; }
.cards { display: flex; flex-wrap: wrap; gap: 12px; margin: 18px 0 6px; }
.card { border: 1px solid #d0d7de; border-radius: 8px; padding: 10px 16px; min-width: 130px; }
.card .v { font-size: 24px; font-weight: 600; }
.card .k { font-size: 12px; color: #59636e; text-transform: uppercase; letter-spacing: .04em; }
.good { color: #1a7f37; }
.bad { color: #cf222e; }
.warn { color: #9a6700; }
table { border-collapse: collapse; font-size: 14px; margin: 6px 0 10px; }
th, td { border: 1px solid #d0d7de; padding: 4px 10px; text-align: left; vertical-align: top; }
th { background: #f6f8fa; font-weight: 600; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
td.best { font-weight: 700; background: #dafbe1; }
table.witness td { padding: 2px 10px; }
svg { display: block; }
svg text { font-family: inherit; fill: #1f2328; }
svg .axis { stroke: #59636e; stroke-width: 1; }
svg .grid { stroke: #e4e7eb; stroke-width: 1; }
svg .bar { fill: #cc4c02; }
svg rect.c { stroke: #afb8c1; stroke-width: .6; }
svg .bar:hover, svg rect.c:hover { stroke: #0969da; stroke-width: 2; }
svg .worst { fill: none; stroke: #0a84ff; stroke-width: 3; pointer-events: none; }
.toggle { font-size: 14px; }
label.toggle { margin-right: 14px; }
.legend { display: none; flex-wrap: wrap; gap: 6px 14px; align-items: center; font-size: 13px; margin: 6px 0 12px; }
.sw { display: inline-block; width: 14px; height: 14px; border: 1px solid #8c959f; vertical-align: -2px;
  margin-right: 4px; }
.heat { margin: 4px 0 18px; overflow-x: auto; }
.charts { display: flex; flex-wrap: wrap; gap: 18px; }
.chart h3 { margin-top: 4px; }
details { margin: 12px 0; font-size: 14px; }
summary { cursor: pointer; }
footer { margin-top: 40px; color: #59636e; font-size: 12px; }
)";

// The colour rules of the heatmap: each metric's radio button, when checked,
// colours the cells by that metric's bucket classes and shows its legend.
void write_metric_style(Out out, const std::vector<Metric>& metrics) {
  for (const Metric& metric : metrics) {
    fmt::format_to(out, "#{0}:checked ~ .legend.{0} {{ display: flex; }}\n", metric.id);
    for (int b = 0; b <= kBuckets; ++b)
      fmt::format_to(out, "#{}:checked ~ .heat rect.{}{} {{ fill: {}; }}\n", metric.id, metric.prefix, b, kColours[b]);
  }
}

void write_card(Out out, std::string_view key, const std::string& value, const char* tone) {
  fmt::format_to(out, "<div class=\"card\"><div class=\"k\">{}</div><div class=\"v {}\">{}</div></div>\n", key, tone,
                 html_escape(value));
}

void write_cards(Out out, const AuditReportData& data) {
  const Correctness& c = data.correctness;
  fmt::format_to(out, "<div class=\"cards\">\n");
  write_card(out, "hosts", number(data.hosts), "");
  write_card(out, "switches", number(data.switches), "");
  write_card(out, "switch levels", number(data.levels), "");
  write_card(out, "unreachable pairs", number(static_cast<double>(c.unreachable)), c.unreachable ? "bad" : "good");
  write_card(out, "loops / credit loops", fmt::format("{} / {}", c.loops, c.credit_loops),
             c.loops || c.credit_loops ? "bad" : "good");
  write_card(out, "worst-case contention", number(data.worst_case) + (data.exact ? "" : " (bound)"),
             data.worst_case <= 1 + 1e-9 ? "good" : "warn");
  fmt::format_to(out, "</div>\n");
}

void write_list(Out out, const std::vector<std::string>& items, size_t limit, std::string_view more) {
  if (items.empty()) return;
  fmt::format_to(out, "<ul>\n");
  for (size_t i = 0; i < std::min(limit, items.size()); ++i) fmt::format_to(out, "<li>{}</li>\n", html_escape(items[i]));
  if (items.size() > limit) fmt::format_to(out, "<li>\u2026 and {} more {}</li>\n", items.size() - limit, more);
  fmt::format_to(out, "</ul>\n");
}

// (a) What the fabric is.
void write_fabric(Out out, const AuditReportData& data) {
  fmt::format_to(out, "<section id=\"fabric\">\n<h2>Fabric</h2>\n<table>\n");
  fmt::format_to(out, "<tr><th>family</th><td>");
  if (data.families.empty()) fmt::format_to(out, "unknown: {}", html_escape(data.unknown_reason));
  for (size_t i = 0; i < data.families.size(); ++i)
    fmt::format_to(out, "{}<b>{}</b> {}", i ? "<br>" : "", html_escape(data.families[i].name),
                   html_escape(data.families[i].params));
  fmt::format_to(out, "</td></tr>\n");
  fmt::format_to(out, "<tr><th>hosts</th><td class=\"n\">{}</td></tr>\n", data.hosts);
  fmt::format_to(out, "<tr><th>switches</th><td class=\"n\">{}</td></tr>\n", data.switches);
  fmt::format_to(out, "<tr><th>switch levels</th><td class=\"n\">{}</td></tr>\n", data.levels);
  fmt::format_to(out, "<tr><th>up/down routable</th><td>{}</td></tr>\n", data.updown_routable ? "yes" : "no");
  fmt::format_to(out, "<tr><th>degraded</th><td class=\"{}\">{}</td></tr>\n", data.degraded ? "bad" : "good",
                 data.degraded ? fmt::format("yes, {} deviations", data.deviations.size()) : "no");
  if (!data.tables.empty()) fmt::format_to(out, "<tr><th>tables</th><td>{}</td></tr>\n", html_escape(data.tables));
  fmt::format_to(out, "</table>\n");
  if (!data.warnings.empty()) {
    fmt::format_to(out, "<h3>Warnings</h3>\n");
    write_list(out, data.warnings, data.warnings.size(), "");
  }
  if (!data.deviations.empty()) {
    // Folded when long, so the charts stay near the top (<details> needs no script).
    fmt::format_to(out, "<details{}><summary><b>Deviations from the family ({})</b></summary>\n",
                   data.deviations.size() <= 10 ? " open" : "", data.deviations.size());
    write_list(out, data.deviations, 200, "(ftclos detect lists them all)");
    fmt::format_to(out, "</details>\n");
  }
  fmt::format_to(out, "</section>\n");
}

void write_count_row(Out out, std::string_view what, long count) {
  fmt::format_to(out, "<tr><th>{}</th><td class=\"n {}\">{}</td></tr>\n", what, count ? "bad" : "good", count);
}

void write_correctness(Out out, const AuditReportData& data) {
  const Correctness& c = data.correctness;
  fmt::format_to(out, "<section id=\"correctness\">\n<h2>Correctness</h2>\n<table>\n");
  fmt::format_to(out, "<tr><th>CA pairs examined</th><td class=\"n\">{}</td></tr>\n", c.pairs);
  write_count_row(out, "unreachable", c.unreachable);
  write_count_row(out, "forwarding loops", c.loops);
  write_count_row(out, "credit loops (per VL)", c.credit_loops);
  write_count_row(out, "up/down violations", c.updown_violations);
  write_count_row(out, "non-minimal paths", c.non_minimal);
  fmt::format_to(out, "</table>\n");
  if (!c.examples.empty()) {
    fmt::format_to(out, "<h3>Examples</h3>\n");
    write_list(out, c.examples, c.examples.size(), "");
  }
  fmt::format_to(out, "</section>\n");
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

// (b) Where the load sits.
void write_heatmaps(Out out, const AuditReportData& data, const std::vector<Group>& groups,
                    const std::vector<Metric>& metrics) {
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

// (c) How evenly each level spreads its pairs.
void write_histograms(Out out, const AuditReportData& data, const std::vector<Group>& groups) {
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

// (d) The worst link and a permutation that reaches it.
void write_worst_link(Out out, const AuditReportData& data) {
  fmt::format_to(out, "<section id=\"worst-link\">\n<h2>Worst link</h2>\n");
  if (data.worst_channel < 0) {
    fmt::format_to(out, "<p>No switch-to-switch channel carries traffic.</p>\n");
  } else {
    const ReportChannel& c = data.channels[data.worst_channel];
    fmt::format_to(out,
                   "<p>Worst-case contention <b>{}</b>{}: one permutation puts {} flows on a single link. Nonblocking: "
                   "<b class=\"{}\">{}</b>.</p>\n",
                   number(data.worst_case), data.exact ? "" : " (an upper bound)", number(data.worst_case),
                   data.worst_case <= 1 + 1e-9 ? "good" : "bad", data.worst_case <= 1 + 1e-9 ? "yes" : "no");
    fmt::format_to(out, "<table>\n<tr><th>link</th><td>{} port {}</td></tr>\n", html_escape(c.switch_name), c.port);
    fmt::format_to(out, "<tr><th>level</th><td>{}</td></tr>\n", html_escape(level_title(c.level, c.direction)));
    fmt::format_to(out, "<tr><th>SD pairs</th><td class=\"n\">{}</td></tr>\n", c.pairs);
    fmt::format_to(out, "<tr><th>sources</th><td class=\"n\">{}</td></tr>\n", c.sources);
    fmt::format_to(out, "<tr><th>destinations</th><td class=\"n\">{}</td></tr>\n", c.destinations);
    fmt::format_to(out, "<tr><th>matching</th><td class=\"n\">{}</td></tr>\n", number(c.matching));
    fmt::format_to(out, "<tr><th>oblivious ratio</th><td>{}</td></tr>\n</table>\n",
                   data.oblivious_ratio ? number(*data.oblivious_ratio) + " (full fat-tree: OPTU = baseload)"
                                        : "n/a (not a full fat-tree: the optimum is not known)");
  }
  if (!data.witness.empty()) {
    fmt::format_to(out, "<h3>Witness permutation ({} pairs)</h3>\n", data.witness.size());
    fmt::format_to(out, "<table class=\"witness\">\n<tr><th class=\"n\">#</th><th>source</th><th>destination</th></tr>\n");
    for (size_t i = 0; i < data.witness.size(); ++i)
      fmt::format_to(out, "<tr><td class=\"n\">{}</td><td>{}</td><td>{}</td></tr>\n", i + 1,
                     html_escape(data.witness[i].first), html_escape(data.witness[i].second));
    fmt::format_to(out, "</table>\n");
  }
  if (!data.notes.empty()) {
    fmt::format_to(out, "<h3>Notes</h3>\n");
    write_list(out, data.notes, data.notes.size(), "");
  }
  fmt::format_to(out, "</section>\n");
}

// (e) Several sets of tables side by side; the lowest worst case is marked.
void write_compared(Out out, const AuditReportData& data) {
  if (data.compared.empty()) return;
  double best = data.compared.front().worst_case;
  for (const ComparedSet& set : data.compared) best = std::min(best, set.worst_case);
  fmt::format_to(out, "<section id=\"compare\">\n<h2>Sets of tables compared</h2>\n<table>\n<tr><th>set</th>"
                      "<th>tables</th><th class=\"n\">unreachable</th><th class=\"n\">loops</th><th class=\"n\">"
                      "credit loops</th><th class=\"n\">up/down violations</th><th class=\"n\">non-minimal</th>"
                      "<th class=\"n\">worst-case contention</th></tr>\n");
  for (const ComparedSet& set : data.compared) {
    const Correctness& c = set.correctness;
    fmt::format_to(out, "<tr><td>{}</td><td>{}", html_escape(set.label),
                   html_escape(fmt::format("{}; LMC {}; offsets: {}", set.origin, set.lmc, set.offsets)));
    for (const std::string& warning : set.warnings)
      fmt::format_to(out, "<br><span class=\"warn\">warning: {}</span>", html_escape(warning));
    fmt::format_to(out, "</td>");
    for (const long count : {c.unreachable, c.loops, static_cast<long>(c.credit_loops)})
      fmt::format_to(out, "<td class=\"n {}\">{}</td>", count ? "bad" : "good", count);
    fmt::format_to(out, "<td class=\"n\">{}</td><td class=\"n\">{}</td>", c.updown_violations, c.non_minimal);
    fmt::format_to(out, "<td class=\"n{}\">{}{}</td></tr>\n",
                   data.compared.size() > 1 && set.worst_case <= best + 1e-12 ? " best" : "", number(set.worst_case),
                   set.exact ? "" : " (bound)");
  }
  fmt::format_to(out, "</table>\n</section>\n");
}

// (f) Patterns side by side per scheme, then every number.
void write_patterns(Out out, const AuditReportData& data) {
  if (data.patterns.empty()) return;
  std::vector<std::string> schemes, patterns;
  std::map<std::pair<std::string, std::string>, const PatternStats*> cell;
  bool bound = false;
  for (const PatternRow& row : data.patterns) {
    if (std::ranges::find(schemes, row.scheme) == schemes.end()) schemes.push_back(row.scheme);
    if (std::ranges::find(patterns, row.stats.pattern) == patterns.end()) patterns.push_back(row.stats.pattern);
    cell[{row.stats.pattern, row.scheme}] = &row.stats;
    bound |= row.stats.basis == OptuBasis::kLowerBound;
  }
  fmt::format_to(out, "<section id=\"patterns\">\n<h2>Traffic patterns</h2>\n");
  fmt::format_to(out, "<h3>Mean performance ratio MLOAD/OPTU (range) &mdash; lower is better, 1 is optimal</h3>\n");
  fmt::format_to(out, "<table>\n<tr><th>pattern</th>");
  for (const std::string& scheme : schemes) fmt::format_to(out, "<th class=\"n\">{}</th>", html_escape(scheme));
  fmt::format_to(out, "</tr>\n");
  for (const std::string& pattern : patterns) {
    double best = -1;
    for (const std::string& scheme : schemes)
      if (const auto it = cell.find({pattern, scheme}); it != cell.end())
        best = best < 0 ? it->second->ratio.mean : std::min(best, it->second->ratio.mean);
    fmt::format_to(out, "<tr><td>{}</td>", html_escape(pattern));
    for (const std::string& scheme : schemes) {
      const auto it = cell.find({pattern, scheme});
      if (it == cell.end()) {
        fmt::format_to(out, "<td class=\"n\">&ndash;</td>");
        continue;
      }
      const Spread& ratio = it->second->ratio;
      fmt::format_to(out, "<td class=\"n{}\">{:.3f} ({:.3f}&ndash;{:.3f})</td>",
                     schemes.size() > 1 && ratio.mean <= best + 1e-12 ? " best" : "", ratio.mean, ratio.min, ratio.max);
    }
    fmt::format_to(out, "</tr>\n");
  }
  fmt::format_to(out, "</table>\n<h3>Details</h3>\n<table>\n<tr><th>pattern</th><th>tables</th><th class=\"n\">"
                      "instances</th><th class=\"n\">ratio</th><th class=\"n\">sd</th><th class=\"n\">MLOAD</th>"
                      "<th class=\"n\">OPTU</th><th class=\"n\">flow BW</th><th class=\"n\">undelivered</th></tr>\n");
  for (const PatternRow& row : data.patterns) {
    const PatternStats& s = row.stats;
    fmt::format_to(out,
                   "<tr><td>{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{:.3f}</td><td class=\"n\">"
                   "{:.3f}</td><td class=\"n\">{:.2f}</td><td class=\"n\">{:.2f}</td><td class=\"n\">{:.3f}</td>"
                   "<td class=\"n {}\">{}</td></tr>\n",
                   html_escape(s.pattern), html_escape(row.scheme), s.ratio.count, s.ratio.mean, s.ratio.stddev,
                   s.mload.mean, s.optu.mean, s.flow_bandwidth.mean, s.undelivered ? "bad" : "", s.undelivered);
  }
  fmt::format_to(out, "</table>\n<p class=\"sub\">OPTU: {}. Flow BW: mean per-flow bandwidth (ORCS); on "
                      "<i>bisection</i> the effective bisection bandwidth.</p>\n</section>\n",
                 bound ? "max(baseload, sub-tree cut), a lower bound, so the ratios are upper bounds"
                       : "baseload, exact on a full fat-tree (Corollary 1)");
}

}  // namespace

std::string audit_html(const AuditReportData& data) {
  const std::vector<Metric> metrics = metrics_of(data.channels);
  const std::vector<Group> groups = channel_groups(data.channels);
  std::string page;
  page.reserve(256 + data.channels.size() * 200);
  const Out out(page);
  const std::string title = data.title.empty() ? "ftclos audit" : "ftclos audit: " + data.title;
  fmt::format_to(out,
                 "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" "
                 "content=\"width=device-width, initial-scale=1\">\n<title>{}</title>\n<style>{}",
                 html_escape(title), kStyle);
  write_metric_style(out, metrics);
  fmt::format_to(out, "</style>\n</head>\n<body>\n<header>\n<h1>{}</h1>\n", html_escape(title));
  if (!data.tables.empty()) fmt::format_to(out, "<div class=\"sub\">tables: {}</div>\n", html_escape(data.tables));
  fmt::format_to(out, "</header>\n");
  if (data.detailed) write_cards(out, data);
  write_fabric(out, data);
  write_compared(out, data);
  if (data.detailed) {
    write_correctness(out, data);
    write_heatmaps(out, data, groups, metrics);
    write_histograms(out, data, groups);
    write_worst_link(out, data);
  }
  write_patterns(out, data);
  fmt::format_to(out, "<footer>Written by <code>ftclos audit --html</code>; self-contained, no scripts.</footer>\n"
                      "</body>\n</html>\n");
  return page;
}

}  // namespace ftclos
