// The C boundary of ftclos_engine.h: the subnet OpenSM discovered becomes a
// lib Fabric with OpenSM's LIDs, detect() recognizes it, the configured
// scheme routes it, and the tables wait here for the C side to copy them into
// OpenSM's switches. Every entry point catches everything (SaveError style,
// after leveldb's db/c.cc); nothing throws into C.
#include "ftclos_engine.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "core/fabric.h"
#include "detect/detect.h"
#include "detect/summary.h"
#include "route/path_bits.h"
#include "route/routing.h"

namespace {

using ftclos::Fabric;
using ftclos::NodeType;
using ftclos::PortRef;
using ftclos::Result;
using ftclos::Status;
using Clock = std::chrono::steady_clock;

constexpr int kShownDeviations = 5;  // deviations logged at INFO; the rest at VERBOSE

// A failure with the errno-style code the C caller gets.
struct Failure {
  int code;
  std::string message;
};

struct Options {
  std::string scheme = "auto";
  std::string path_bits_file;  // empty: not written
  bool refuse_low_lmc = false;  // lmc_shortfall=refuse
  bool allow_unreachable = false;  // unreachable=allow
};

// event_plugin_options: key=value words separated by spaces, tabs or commas.
Result<Options> parse_options(std::string_view text) {
  Options options;
  std::string words(text);
  for (char& c : words)
    if (c == ',' || c == '\t') c = ' ';
  std::istringstream in(words);
  for (std::string word; in >> word;) {
    const size_t eq = word.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == word.size())
      return Status::Error(fmt::format("option \"{}\" is not key=value", word));
    const std::string key = word.substr(0, eq), value = word.substr(eq + 1);
    if (key == "scheme") {
      Result<std::unique_ptr<ftclos::Scheme>> scheme = ftclos::make_scheme(value);
      if (!scheme.ok()) return Status::Error("scheme=" + value + ": " + scheme.status().message());
      options.scheme = value;
    } else if (key == "pathbits_file") {
      options.path_bits_file = value == "off" ? "" : value;
    } else if (key == "lmc_shortfall") {
      if (value != "warn" && value != "refuse")
        return Status::Error(fmt::format("lmc_shortfall={}: expected warn or refuse", value));
      options.refuse_low_lmc = value == "refuse";
    } else if (key == "unreachable") {
      if (value != "refuse" && value != "allow")
        return Status::Error(fmt::format("unreachable={}: expected refuse or allow", value));
      options.allow_unreachable = value == "allow";
    } else {
      return Status::Error(
          fmt::format("unknown option \"{}\" (known: scheme, pathbits_file, lmc_shortfall, unreachable)", key));
    }
  }
  return options;
}

// The subnet as a lib Fabric. Switches keep their ports; every cabled CA port
// becomes a one-port CA node of its own (the lib addresses a CA by its port
// 1), named as `ftclos route` names nodes read from ibnetdiscover output.
struct Built {
  Fabric fabric;
  ftclos::LidMap lids;
  std::vector<int> switch_of;  // per input node: its fabric index for switches, else -1
  int unrouted_ports = 0;      // CA ports with LIDs but no cable: not in the fabric
};

std::string hex_guid(uint64_t guid) { return fmt::format("{:016x}", guid); }

Result<Built> build_fabric(const ftclos_subnet& in) {
  Built out;
  out.switch_of.assign(in.num_nodes, -1);
  auto node_at = [&](int index) -> Result<const ftclos_node*> {
    if (index < 0 || static_cast<size_t>(index) >= in.num_nodes)
      return Status::Error(fmt::format("node index {} out of range", index));
    return &in.nodes[index];
  };
  // Cabled CA ports, to decide how each CA is split.
  std::map<std::pair<int, int>, bool> cabled;
  std::vector<int> cabled_count(in.num_nodes, 0);
  for (size_t i = 0; i < in.num_links; ++i) {
    const ftclos_link& link = in.links[i];
    for (auto [n, p] : {std::pair{link.a, link.a_port}, std::pair{link.b, link.b_port}}) {
      Result<const ftclos_node*> node = node_at(n);
      if (!node.ok()) return node.status();
      if (p < 1 || p > (*node)->num_ports)
        return Status::Error(fmt::format("port {} of node {:#x} out of range", p, (*node)->guid));
      if ((*node)->type != FTCLOS_SWITCH && !cabled[{n, p}]) {
        cabled[{n, p}] = true;
        ++cabled_count[n];
      }
    }
  }
  std::map<std::pair<int, int>, PortRef> ca_port;  // (input node, port) -> fabric CA node, port 1
  for (size_t i = 0; i < in.num_nodes; ++i) {
    const ftclos_node& node = in.nodes[i];
    const std::string description = node.description ? node.description : "";
    if (node.type == FTCLOS_SWITCH) {
      Result<int> index = out.fabric.add_node(NodeType::kSwitch, "S-" + hex_guid(node.guid), node.num_ports, node.guid);
      if (!index.ok()) return index.status();
      out.fabric.node(*index).description = description;
      out.switch_of[i] = *index;
      continue;
    }
    for (int p = 1; p <= node.num_ports; ++p) {
      if (!cabled.count({static_cast<int>(i), p})) continue;
      const bool alone = cabled_count[i] == 1;
      const std::string name = alone ? "H-" + hex_guid(node.guid) : fmt::format("H-{}-p{}", hex_guid(node.guid), p);
      Result<int> index = out.fabric.add_node(NodeType::kCa, name, 1, alone ? node.guid : node.guid + p);
      if (!index.ok()) return index.status();
      out.fabric.node(*index).description = alone ? description : fmt::format("{} port {}", description, p);
      ca_port[{static_cast<int>(i), p}] = {*index, 1};
    }
  }
  auto ref = [&](int n, int p) -> PortRef {
    if (out.switch_of[n] >= 0) return {out.switch_of[n], p};
    return ca_port.at({n, p});
  };
  for (size_t i = 0; i < in.num_links; ++i) {
    const ftclos_link& link = in.links[i];
    if (Status status = out.fabric.connect(ref(link.a, link.a_port), ref(link.b, link.b_port)); !status.ok())
      return status;
  }

  // LIDs exactly as OpenSM assigned them.
  ftclos::LidMap& lids = out.lids;
  lids.lmc = in.lmc;
  lids.base.assign(out.fabric.size(), 0);
  lids.owner.assign(1, -1);
  for (size_t i = 0; i < in.num_lids; ++i) {
    const ftclos_lid& record = in.lids[i];
    Result<const ftclos_node*> node = node_at(record.node);
    if (!node.ok()) return node.status();
    if (record.base_lid == 0) continue;
    PortRef at;
    if (out.switch_of[record.node] >= 0) {
      if (record.port != 0) continue;  // switch LIDs live on port 0
      at = {out.switch_of[record.node], 0};
    } else if (auto it = ca_port.find({record.node, record.port}); it != ca_port.end()) {
      at = it->second;
      if (record.lmc != in.lmc)
        return Status::Error(fmt::format("port {:#x} has LMC {}, the subnet LMC is {}", record.guid, record.lmc, in.lmc));
    } else {
      ++out.unrouted_ports;  // the SM's own port before its link is up, or a port OpenSM keeps a LID for
      continue;
    }
    ftclos::Port& port = out.fabric.port(at);
    port.guid = record.guid;
    port.lid = record.base_lid;
    port.lmc = record.lmc;
    const int last = record.base_lid + (1 << record.lmc) - 1;
    if (static_cast<int>(lids.owner.size()) <= last) lids.owner.resize(last + 1, -1);
    for (int lid = record.base_lid; lid <= last; ++lid) {
      if (lids.owner[lid] >= 0)
        return Status::Error(fmt::format("LID {} belongs to both \"{}\" and \"{}\"", lid,
                                         out.fabric.node(lids.owner[lid]).display_name(),
                                         out.fabric.node(at.node).display_name()));
      lids.owner[lid] = at.node;
    }
    lids.base[at.node] = record.base_lid;
    lids.max_lid = std::max(lids.max_lid, last);
  }
  return out;
}

// CA-to-CA reachability through the computed tables. LFTs are keyed by
// destination, so a route from a CA is its leaf's route: for every CA LID,
// every leaf with a CA other than the destination must deliver it. Each
// (switch, LID) state is resolved once, so this costs at most one step per
// switch and LID.
struct Reach {
  long failures = 0;                  // (leaf, CA LID) pairs that do not deliver
  std::vector<std::string> examples;  // the first few, for the log
};

Reach check_reach(const Fabric& fabric, const ftclos::LidMap& lids, const ftclos::Lfts& lfts) {
  constexpr size_t kExamples = 3;
  std::vector<int> leaves, leaf_cas, leaf_ca;  // per leaf: CAs cabled, one of them
  for (int x = 0; x < fabric.size(); ++x) {
    const ftclos::Node& node = fabric.node(x);
    if (!node.is_switch()) continue;
    int cas = 0, some = -1;
    for (int p = 1; p <= node.num_ports; ++p)
      if (const PortRef peer = node.ports[p].peer; peer.valid() && !fabric.node(peer.node).is_switch()) {
        ++cas;
        some = peer.node;
      }
    if (cas == 0) continue;
    leaves.push_back(x);
    leaf_cas.push_back(cas);
    leaf_ca.push_back(some);
  }
  enum : uint8_t { kUnknown, kDelivers, kFails, kOnPath };
  std::vector<uint8_t> state(fabric.size(), kUnknown);
  std::vector<int> path, touched;
  Reach reach;
  for (int lid = 1; lid < static_cast<int>(lids.owner.size()); ++lid) {
    const int owner = lids.owner[lid];
    if (owner < 0 || fabric.node(owner).is_switch()) continue;
    for (int x : touched) state[x] = kUnknown;
    touched.clear();
    for (size_t i = 0; i < leaves.size(); ++i) {
      if (leaf_cas[i] == 1 && leaf_ca[i] == owner) continue;  // no other CA sends from there
      int x = leaves[i];
      std::string why;
      uint8_t result = kFails;
      path.clear();
      while (true) {
        if (state[x] == kDelivers || state[x] == kFails) {
          result = state[x];
          break;
        }
        if (state[x] == kOnPath) {
          why = "loop";
          break;
        }
        state[x] = kOnPath;
        path.push_back(x);
        touched.push_back(x);
        const std::vector<uint8_t>& table = lfts.port[x];
        const uint8_t port = lid < static_cast<int>(table.size()) ? table[lid] : ftclos::kNoPath;
        const ftclos::Node& node = fabric.node(x);
        if (port == ftclos::kNoPath || port == 0 || port > node.num_ports || !node.ports[port].peer.valid()) {
          why = port == ftclos::kNoPath ? fmt::format("no path at \"{}\"", node.display_name())
                                        : fmt::format("dead port {} at \"{}\"", port, node.display_name());
          break;
        }
        const PortRef peer = node.ports[port].peer;
        if (!fabric.node(peer.node).is_switch()) {
          result = peer.node == owner ? kDelivers : kFails;
          if (result == kFails) why = fmt::format("delivered to \"{}\"", fabric.node(peer.node).display_name());
          break;
        }
        x = peer.node;
      }
      for (int y : path) state[y] = result;
      if (result == kDelivers) continue;
      ++reach.failures;
      if (reach.examples.size() < kExamples)
        reach.examples.push_back(fmt::format("\"{}\" -> \"{}\" LID {}: {}",
                                             fabric.node(leaf_ca[i]).display_name(),
                                             fabric.node(owner).display_name(), lid, why.empty() ? "fails further on" : why));
    }
  }
  return reach;
}

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

int count_missing_cables(const ftclos::Detection& detection) {
  int n = 0;
  for (const ftclos::Deviation& d : detection.deviations()) n += d.kind == ftclos::Deviation::Kind::kMissingCable;
  return n;
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

Status write_file_atomically(const std::filesystem::path& path, const std::string& text) {
  const std::filesystem::path tmp = path.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    if (!(out << text) || !out.flush()) return Status::Error(fmt::format("cannot write {}", tmp.string()));
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) return Status::Error(fmt::format("cannot rename {} to {}: {}", tmp.string(), path.string(), ec.message()));
  return Status::Ok();
}

}  // namespace

struct ftclos_engine {
  ftclos_log_fn log_fn = nullptr;
  void* log_ctx = nullptr;
  Result<Options> options = Options{};

  // The last routing, for the C side to copy and for path_sl.
  std::vector<int> switch_of;
  ftclos::Lfts lfts;
  std::mutex sl_mutex;
  std::shared_ptr<const std::vector<uint8_t>> dest_sl;  // guarded by sl_mutex

  void log(int level, const std::string& line) const {
    if (log_fn) log_fn(log_ctx, level, line.c_str());
  }

  void set_sls(std::shared_ptr<const std::vector<uint8_t>> sls) {
    std::lock_guard<std::mutex> lock(sl_mutex);
    dest_sl = std::move(sls);
  }

  void clear() {
    switch_of.clear();
    lfts = {};
    set_sls(nullptr);
  }

  // Returns 0 or a Failure; logs what it found and decided.
  int route(const ftclos_subnet& subnet, const char* dump_dir, Failure& failure);
};

namespace {

void save_error(char** errptr, const std::string& message) {
  if (!errptr) return;
  std::free(*errptr);
  *errptr = strdup(message.c_str());
}

// Runs `body` and turns any exception into an errno code and message.
template <class Body>
int guarded(char** errptr, Body&& body) {
  try {
    Failure failure{0, {}};
    const int rc = body(failure);
    if (rc != 0) save_error(errptr, failure.message);
    return rc;
  } catch (const std::bad_alloc&) {
    save_error(errptr, "out of memory");
    return -ENOMEM;
  } catch (const std::exception& e) {
    save_error(errptr, std::string("internal error: ") + e.what());
    return -EFAULT;
  } catch (...) {
    save_error(errptr, "internal error");
    return -EFAULT;
  }
}

}  // namespace

int ftclos_engine::route(const ftclos_subnet& subnet, const char* dump_dir, Failure& failure) {
  const Clock::time_point start = Clock::now();
  // The SLs of the last routing stay until the new ones are ready: path_sl
  // never sees a half-built state.
  switch_of.clear();
  lfts = {};
  if (!options.ok()) {
    failure = {-EINVAL, "bad event_plugin_options: " + options.status().message()};
    return failure.code;
  }
  Result<Built> built = build_fabric(subnet);
  if (!built.ok()) {
    failure = {-EPROTO, "cannot read the subnet: " + built.status().message()};
    return failure.code;
  }
  const Fabric& fabric = built->fabric;
  if (built->unrouted_ports > 0)
    log(FTCLOS_LOG_VERBOSE, fmt::format("{} end ports with LIDs have no cable; their LIDs get no route",
                                        built->unrouted_ports));

  const Clock::time_point detect_start = Clock::now();
  const ftclos::Detection detection = detect(fabric);
  const double detect_ms = ms_since(detect_start);
  int shown = 0, hidden = 0;
  for (const std::string& line : split_lines(ftclos::detection_summary(fabric, detection))) {
    if (line.rfind("  ", 0) != 0) {
      log(FTCLOS_LOG_INFO, line);
    } else if (shown < kShownDeviations) {
      log(FTCLOS_LOG_INFO, "deviation:" + line.substr(1));
      ++shown;
    } else {
      log(FTCLOS_LOG_VERBOSE, "deviation:" + line.substr(1));
      ++hidden;
    }
  }
  if (detection.degraded())
    log(FTCLOS_LOG_INFO, fmt::format("degraded: {} deviations, {} missing cables{}", detection.deviations().size(),
                                     count_missing_cables(detection),
                                     hidden ? fmt::format(" ({} more deviations at verbose level)", hidden) : ""));

  Result<std::unique_ptr<ftclos::Scheme>> scheme = ftclos::make_scheme(options->scheme);
  if (!scheme.ok()) {
    failure = {-EINVAL, scheme.status().message()};
    return failure.code;
  }
  const Clock::time_point route_start = Clock::now();
  Result<ftclos::Routing> routing = (*scheme)->route({fabric, detection, built->lids});
  const double route_ms = ms_since(route_start);
  if (!routing.ok()) {
    failure = {-EHOSTUNREACH, fmt::format("scheme {} cannot route this fabric: {}", options->scheme,
                                          routing.status().message())};
    return failure.code;
  }
  log(FTCLOS_LOG_INFO, fmt::format("scheme: {}", options->scheme));
  for (const std::string& note : routing->notes) log(FTCLOS_LOG_INFO, "note: " + note);
  log(FTCLOS_LOG_INFO, fmt::format("LMC: {} configured, {} needed", subnet.lmc, routing->lmc_needed));
  if (routing->lmc_needed > subnet.lmc) {
    const std::string shortfall =
        fmt::format("LMC {} is less than the {} scheme {} needs for its full guarantee on this fabric", subnet.lmc,
                    routing->lmc_needed, options->scheme);
    if (options->refuse_low_lmc) {
      failure = {-ERANGE, shortfall + " (lmc_shortfall=refuse)"};
      return failure.code;
    }
    log(FTCLOS_LOG_ERROR, shortfall + "; routing anyway (lmc_shortfall=warn)");
  }
  log(FTCLOS_LOG_INFO, fmt::format("entries re-routed around failures: {}", routing->rerouted));

  const Clock::time_point check_start = Clock::now();
  const Reach reach = check_reach(fabric, built->lids, routing->lfts);
  const double check_ms = ms_since(check_start);
  if (reach.failures > 0) {
    const std::string what = fmt::format("{} (leaf, CA LID) routes do not deliver, e.g. {}", reach.failures,
                                         fmt::join(reach.examples, "; "));
    if (!options->allow_unreachable) {
      failure = {-EHOSTUNREACH, fmt::format("scheme {} leaves CAs unreachable: {} (unreachable=refuse)",
                                            options->scheme, what)};
      return failure.code;
    }
    log(FTCLOS_LOG_ERROR, what + "; routing anyway (unreachable=allow)");
  } else {
    log(FTCLOS_LOG_VERBOSE, "every CA reaches every CA LID through the new tables");
  }

  switch_of = std::move(built->switch_of);
  lfts = std::move(routing->lfts);
  if (routing->dest_sl.empty()) {
    set_sls(nullptr);
  } else {
    int sls = 0;
    for (uint8_t sl : routing->dest_sl) sls = std::max(sls, sl + 1);
    log(FTCLOS_LOG_INFO, fmt::format("path SLs: {} used (SL per destination LID, answered in PathRecords)", sls));
    set_sls(std::make_shared<const std::vector<uint8_t>>(std::move(routing->dest_sl)));
  }
  log(FTCLOS_LOG_INFO, fmt::format("time: {:.1f} ms ({:.1f} ms recognition, {:.1f} ms routing, {:.1f} ms checking)",
                                   ms_since(start), detect_ms, route_ms, check_ms));

  if (!options->path_bits_file.empty()) {
    std::filesystem::path path(options->path_bits_file);
    if (path.is_relative() && dump_dir && *dump_dir) path = std::filesystem::path(dump_dir) / path;
    if (Status status = write_file_atomically(path, ftclos::write_path_bits(fabric, *routing)); !status.ok()) {
      failure = {-EIO, status.message()};
      return failure.code;
    }
    log(FTCLOS_LOG_INFO, fmt::format("path bits written to {}", path.string()));
  }
  return 0;
}

extern "C" {

struct ftclos_engine* ftclos_engine_create(ftclos_log_fn log, void* log_ctx, char** errptr) {
  try {
    auto* engine = new ftclos_engine;
    engine->log_fn = log;
    engine->log_ctx = log_ctx;
    return engine;
  } catch (...) {
    save_error(errptr, "out of memory");
    errno = ENOMEM;
    return nullptr;
  }
}

void ftclos_engine_destroy(struct ftclos_engine* engine) { delete engine; }

int ftclos_engine_set_options(struct ftclos_engine* engine, const char* options, char** errptr) {
  return guarded(errptr, [&](Failure& failure) {
    engine->options = parse_options(options ? options : "");
    if (engine->options.ok()) return 0;
    failure = {-EINVAL, engine->options.status().message()};
    return failure.code;
  });
}

int ftclos_engine_route(struct ftclos_engine* engine, const struct ftclos_subnet* subnet, const char* dump_dir,
                        char** errptr) {
  const int rc = guarded(errptr, [&](Failure& failure) { return engine->route(*subnet, dump_dir, failure); });
  if (rc != 0 && rc != -EIO) {
    try {
      engine->clear();
    } catch (...) {
    }
  }
  return rc;
}

int ftclos_engine_lft(const struct ftclos_engine* engine, size_t node, const uint8_t** ports, uint16_t* max_lid) {
  if (node >= engine->switch_of.size() || engine->switch_of[node] < 0) return -ENOENT;
  const std::vector<uint8_t>& table = engine->lfts.port[engine->switch_of[node]];
  if (table.empty()) return -ENOENT;
  *ports = table.data();
  *max_lid = static_cast<uint16_t>(table.size() - 1);
  return 0;
}

uint8_t ftclos_engine_path_sl(struct ftclos_engine* engine, uint8_t hint, uint16_t /*slid*/, uint16_t dlid) {
  try {
    std::lock_guard<std::mutex> lock(engine->sl_mutex);
    if (engine->dest_sl && dlid < engine->dest_sl->size()) return (*engine->dest_sl)[dlid];
  } catch (...) {
  }
  return hint;
}

void ftclos_engine_clear(struct ftclos_engine* engine) {
  try {
    engine->clear();
  } catch (...) {
  }
}

void ftclos_free(void* ptr) { std::free(ptr); }

}  // extern "C"
