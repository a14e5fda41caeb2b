// The routing contract every scheme implements. LFTs are keyed by
// destination LID only; source-dependent schemes use LMC: a CA owns LIDs
// base .. base + 2^lmc - 1 and source s always sends to base(d) + p(s)
// (its "path bits", UCX_IB_LID_PATH_BITS).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/fabric.h"
#include "core/status.h"
#include "detect/detect.h"
#include "route/lid_map.h"

namespace ftclos {

inline constexpr uint8_t kNoPath = 0xFF;  // OpenSM's OSM_NO_PATH

/// One linear forwarding table per switch: out port for every LID.
struct Lfts {
  std::vector<std::vector<uint8_t>> port;  // [node][lid]; empty for CAs

  uint8_t at(int node, int lid) const { return port[node][lid]; }
  /// at(), or kNoPath where the node's table ends before `lid`.
  uint8_t at_or_none(int node, int lid) const {
    const std::vector<uint8_t>& table = port[node];
    return lid < static_cast<int>(table.size()) ? table[lid] : kNoPath;
  }
};

struct Routing {
  Lfts lfts;
  std::vector<int> path_bits;     // per node: p(s) for CAs, 0 elsewhere
  std::vector<uint8_t> dest_sl;   // per LID: SL of packets to it; empty = SL 0 everywhere
  int star_sl = -1;               // the SL whose LIDs all take up*/down* trees (paths/detour_layers.h); -1: none
  int lmc_needed = 0;             // LMC for the scheme's full guarantee on this fabric
  int rerouted = 0;               // entries moved off dead ports (degraded fabrics)
  std::vector<std::string> notes; // what the scheme decided and why, for logs (callers name the scheme)
  std::string summary;            // one line on the routing, for auto's note where it passes the scheme over
  std::string_view chosen;        // auto: the scheme it chose; empty for the others
  bool checked = false;           // auto: these tables passed RoutingInput::strands
  bool polish_cut_short = false;  // the contention polish stopped at RoutingInput::polish_work, not at its best
  // Switches' own routes turn from down to up where no argument keeps them
  // from a credit loop with the CAs' (they were layered, or fit no SL): the
  // check then counts credit loops with switches' own routes.
  bool switch_turns_layered = false;
};

struct RoutingInput;
/// Why a scheme's tables for `input` leave pairs that cables join
/// undelivered ("" when they do not): the auditor's check, handed down by
/// the caller since route/ cannot include audit/.
using StrandCheck = std::function<std::string(const RoutingInput& input, const Routing& routing)>;

/// The worst-case contention of a scheme's tables (the auditor's exact
/// figure, every source on its path bits), handed down like StrandCheck:
/// auto weighs a challenger against its choice by it.
using WorstCaseMeasure = std::function<double(const RoutingInput& input, const Routing& routing)>;

/// The contention polish's work budget (paths/contention_polish.h) when
/// nothing asks for less: ~0.6 s on a 64-host random folded Clos.
inline constexpr long kFullPolishWork = 50'000'000;

/// Data VLs a port offers when the caller cannot say: VLCap VL0-7, what
/// ibsim's ports and most HCAs and switches report.
inline constexpr int kDefaultDataVls = 8;

/// Who sends on their path bits. A host that does not know its p(s) sends
/// to base(d) + 0: the SA's first PathRecord for a pair is always the base
/// LIDs, and rdmacm, default UCX and MPI take it.
enum class PathBitsUsers : uint8_t {
  kSome,  // some hosts take offset 0: the source-class schemes keep it for D-mod-k, their classes on the other offsets
  kAll,   // every host exports its path bits (route --pathbits-users all, plugin pathbits_users=all)
};

/// Tables that depend on the fabric, detection and LIDs alone, routed the
/// first time a scheme asks and shared by every scheme routed from copies
/// of one RoutingInput (auto's choice and its challengers): up*/down*'s
/// (paths/updown_star.h), which updown's and D-mod-k's SHARP AN trees and
/// switch-LID trees of a pod take their entries from.
struct RoutingMemo {
  std::optional<Result<Routing>> updown_star;
};

struct RoutingInput {
  const Fabric& fabric;
  const Detection& detection;
  const LidMap& lids;
  const StrandCheck* strands = nullptr;          // auto passes over a scheme whose tables fail it
  const WorstCaseMeasure* worst_case = nullptr;  // auto tries challengers (SchemeEntry::auto_challenges) only with it
  int data_vls = kDefaultDataVls;                // VLs every port that carries traffic offers: the SLs a scheme may use
  bool polish = true;                            // the contention polish after updown and degraded dmodk (paths/contention_polish.h)
  PathBitsUsers path_bits_users = PathBitsUsers::kSome;
  long polish_work = kFullPolishWork;            // the polish's work budget
  const std::atomic<bool>* cancel = nullptr;     // set: the polish stops at once (the tables stay sound)
  // Whether Scheme::route completes switches' own traffic (schemes/
  // switch_traffic.h). A sweep that merges the last tables' entries first
  // turns it off and completes the merged tables once, against the last ones.
  bool switch_traffic = true;
  std::shared_ptr<RoutingMemo> memo = std::make_shared<RoutingMemo>();  // copies share it
};

class Scheme {
 public:
  virtual ~Scheme() = default;
  virtual std::string_view name() const = 0;
  /// Whether the scheme routes this fabric, from the detection alone (before
  /// routing): OK, or why not. route() fails with the same reason.
  virtual Status applies(const Detection& detection) const = 0;
  /// The LMC the scheme's full guarantee needs on this fabric, where it
  /// applies, for these path-bits users; known before routing, and what
  /// route() reports.
  virtual int lmc_needed(const Detection& /*detection*/, PathBitsUsers /*users*/) const { return 0; }
  /// The scheme's tables (route_tables), then every switch's own traffic
  /// completed (schemes/switch_traffic.h): every switch reaches every LID and
  /// every CA every switch LID wherever cables allow, with no CA-to-CA route
  /// changed. Fails with the reason when the fabric is not one the scheme
  /// can route.
  Result<Routing> route(const RoutingInput& input) const;

 protected:
  /// Fills every switch's LFT for every LID the scheme's CA routes use, and
  /// switch LIDs, as the scheme decides.
  virtual Result<Routing> route_tables(const RoutingInput& input) const = 0;
  /// Whether route_tables' tables come from another scheme's route() (auto's
  /// choice), their switches' own traffic completed there already.
  virtual bool routes_by_other_schemes() const { return false; }
};

/// Scheme by name ("dmodk", "updown", ...) from the scheme table
/// (schemes/scheme_registry.h); an unknown name fails with the closest known
/// name and the list of all.
Result<std::unique_ptr<Scheme>> make_scheme(std::string_view name);
std::vector<std::string_view> scheme_names();

}  // namespace ftclos
