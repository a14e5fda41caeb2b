// What every subcommand spells the same way: the topology argument, --scheme
// (default auto) and --schemes, --lmc, --json FILE ('-' for stdout), one
// output writer, and progress lines that only a terminal sees (-q silences
// them).
#pragma once

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "core/fabric.h"
#include "core/files.h"
#include "core/status.h"
#include "detect/host_hints.h"
#include "route/lid_map.h"
#include "route/routing.h"

namespace ftclos::cli {

/// The positional fabric argument, TOPO in every subcommand.
CLI::Option* add_topology(CLI::App& app, std::string& topology);
/// --scheme NAME, checked against the scheme table, default auto.
CLI::Option* add_scheme(CLI::App& app, std::string& scheme, const std::string& what);
/// --schemes NAME,NAME,..: several schemes, each checked.
CLI::Option* add_schemes(CLI::App& app, std::vector<std::string>& schemes, const std::string& what);
/// --lmc L (0-7).
CLI::Option* add_lmc(CLI::App& app, int& lmc, const std::string& what);
/// --pathbits-users some|all (route/routing.h PathBitsUsers), default some.
CLI::Option* add_path_bits_users(CLI::App& app, PathBitsUsers& users);
/// Refuses a negative number (CLI11 would wrap it into an unsigned option).
extern const CLI::Validator kNonNegative;
/// A whole number in low..high; the error reads "--jobs: 0 is not in 1..4096".
CLI::Validator whole_number_in(int low, int high);
/// A whole number of at least 1.
extern const CLI::Validator kPositive;

/// The topology file of `command` in any format core/fabric_file.h reads,
/// as end nodes; its repairs go to stderr as "ftclos COMMAND: warning: ...".
Result<Fabric> read_topology(const std::string& command, const std::string& path);

/// --cn-guid-file, --io-guid-file, --root-guid-file: OpenSM ftree's hint
/// files, overriding the guess of which CAs are compute hosts.
void add_host_hints(CLI::App& app, HintFiles& files);
/// The hint files, checked against `fabric` (detect/host_hints.h); the
/// warnings go to stderr as "ftclos COMMAND: warning: ...".
Result<HostHints> read_hints(const std::string& command, const HintFiles& files, const Fabric& fabric);

/// --guid2lid FILE: OpenSM's guid2lid cache; tables routed here then use the
/// subnet's LIDs and LMC (so it excludes --lmc).
CLI::Option* add_guid2lid(CLI::App& app, std::string& path, CLI::Option* lmc);

/// The LIDs `command` routes on: those of the guid2lid file when one is
/// given, else assign_lids at `lmc` (-1: the topology file's LMC), with a note
/// on stderr saying whose they are.
Result<LidMap> routing_lids(const Fabric& fabric, const std::string& guid2lid, int lmc, const std::string& command);

/// --json FILE, '-' for stdout.
CLI::Option* add_json(CLI::App& app, std::string& path);

/// A JSON report as text. Names from the fabric need not be UTF-8 (a net
/// file is bytes); invalid sequences become U+FFFD instead of aborting.
std::string json_text(const nlohmann::json& document);

/// A file a command reads or writes, with what names it ("-o", "TOPO").
struct NamedPath {
  std::string name;
  std::string path;  // empty: not given; '-': stdout
};

/// Refuses an output that is one of the inputs or another output (the same
/// device and inode, or for a file not there yet the same path): writing it
/// would destroy the other. Paths that are empty, '-' or no regular file
/// (/dev/null) are not compared.
Status check_distinct_outputs(const std::vector<NamedPath>& inputs, const std::vector<NamedPath>& outputs);

/// Every output of one command, all written or none (core/files.h's
/// OutputFiles): files go to temporaries at add(); commit() writes what goes
/// to stdout ('-'), then renames the files into place.
class Outputs {
 public:
  /// `produce` must stay valid until commit() for '-'.
  Status add(const std::string& path, const TextProducer& produce);
  Status commit();

 private:
  OutputFiles files_;
  std::vector<TextProducer> to_stdout_;
};

/// One output: `text` to `path`, or to stdout when it is "-".
Status write_output(const std::string& path, const std::string& text);

/// Prints "ftclos CMD: what" on stderr and returns 2, the exit status of bad input.
int bad_input(const std::string& command, const Status& status);

/// The topology and hint files as inputs for check_distinct_outputs.
std::vector<NamedPath> topology_inputs(const std::string& topology, const HintFiles& hints);

/// -q: no progress lines.
void set_quiet(bool quiet);

/// Stage lines of a long run ("ftclos audit: what (1.2 s)") on stderr, only
/// when stderr is a terminal and -q is not given.
class Progress {
 public:
  explicit Progress(std::string command);
  void stage(const std::string& what);

 private:
  std::string command_;
  double start_;
};

}  // namespace ftclos::cli
