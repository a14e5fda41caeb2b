#include "cli_common.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <limits>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "audit/lft_parse.h"
#include "core/fabric_file.h"
#include "core/files.h"
#include "route/routing.h"

namespace ftclos::cli {
namespace {

bool g_quiet = false;

double seconds_now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// A name of the scheme table; the error names the closest one.
const CLI::Validator kSchemeName(
    [](std::string& name) {
      Result<std::unique_ptr<Scheme>> scheme = make_scheme(name);
      return scheme.ok() ? std::string() : scheme.status().message();
    },
    "SCHEME");

std::string scheme_help(const std::string& what) {
  return fmt::format("{} ({}; `ftclos schemes` says what each does)", what, fmt::join(scheme_names(), ", "));
}

}  // namespace

const CLI::Validator kNonNegative(
    [](std::string& value) { return value.starts_with('-') ? "must not be negative, got " + value : std::string(); },
    "NONNEGATIVE");

CLI::Validator whole_number_in(int low, int high) {
  return CLI::Validator(
      [low, high](std::string& text) {
        long value = 0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (error == std::errc() && end == text.data() + text.size() && value >= low && value <= high)
          return std::string();
        return fmt::format("{} is not in {}..{}", excerpt(text), low, high);
      },
      fmt::format("{}..{}", low, high));
}

const CLI::Validator kPositive = whole_number_in(1, std::numeric_limits<int>::max());

CLI::Option* add_topology(CLI::App& app, std::string& topology) {
  return app.add_option("TOPO", topology, "Fabric in ibnetdiscover / ibsim net-file format")->required();
}

CLI::Option* add_scheme(CLI::App& app, std::string& scheme, const std::string& what) {
  scheme = "auto";
  return app.add_option("--scheme", scheme, scheme_help(what) + ", default auto")
      ->check(kSchemeName);
}

CLI::Option* add_schemes(CLI::App& app, std::vector<std::string>& schemes, const std::string& what) {
  return app.add_option("--schemes", schemes, scheme_help(what))->delimiter(',')->check(kSchemeName);
}

CLI::Option* add_lmc(CLI::App& app, int& lmc, const std::string& what) {
  return app.add_option("--lmc", lmc, what)->check(CLI::Range(0, 7));
}

CLI::Option* add_path_bits_users(CLI::App& app, PathBitsUsers& users) {
  return app
      .add_option_function<std::string>(
          "--pathbits-users",
          [&users](const std::string& value) { users = value == "all" ? PathBitsUsers::kAll : PathBitsUsers::kSome; },
          "Who sends on its path bits: some (default; the others take the SA's first PathRecord, offset 0, which "
          "source-class schemes keep for D-mod-k) or all (every job exports UCX_IB_LID_PATH_BITS: every offset "
          "carries a source class, one LID fewer)")
      ->check(CLI::IsMember({"some", "all"}));
}

void add_host_hints(CLI::App& app, HintFiles& files) {
  app.add_option("--cn-guid-file", files.cn_guid_file, "GUIDs of the compute CAs (OpenSM ftree's cn_guid_file)");
  app.add_option("--io-guid-file", files.io_guid_file, "GUIDs of attached (I/O) CAs (OpenSM ftree's io_guid_file)");
  app.add_option("--root-guid-file,--roots", files.root_guid_file, "GUIDs of the root switches, one a line (OpenSM root_guid_file; the roots of up*/down* too)");
}

Result<Fabric> read_topology(const std::string& command, const std::string& path) {
  std::vector<std::string> warnings;
  Result<Fabric> fabric = read_end_nodes(path, &warnings);
  for (const std::string& warning : warnings) fmt::print(stderr, "ftclos {}: warning: {}\n", command, warning);
  return fabric;
}

Result<HostHints> read_hints(const std::string& command, const HintFiles& files, const Fabric& fabric) {
  Result<ReadHints> read = read_host_hints(files, fabric);
  if (!read.ok()) return read.status();
  for (const std::string& warning : read->warnings) fmt::print(stderr, "ftclos {}: warning: {}\n", command, warning);
  return std::move(read->hints);
}

CLI::Option* add_guid2lid(CLI::App& app, std::string& path, CLI::Option* lmc) {
  return app
      .add_option("--guid2lid", path,
                  "OpenSM's guid2lid cache (in OSM_CACHE_DIR, /var/cache/opensm): route on the subnet's LIDs and LMC")
      ->type_name("FILE")
      ->excludes(lmc);
}

Result<LidMap> routing_lids(const Fabric& fabric, const std::string& guid2lid, int lmc, const std::string& command) {
  if (!guid2lid.empty()) {
    Result<TextFile> file = read_text_file(guid2lid);
    if (!file.ok()) return file.status();
    return parse_lid_file(fabric, *file);
  }
  // The tables are only the subnet's when the LIDs are: say whose these are.
  // Another LMC than the file's renumbers the subnet, so its LIDs go too.
  const int subnet_lmc = input_lmc(fabric);
  if (lmc < 0) lmc = subnet_lmc;
  if (carries_every_lid(fabric) && lmc == subnet_lmc)
    fmt::print(stderr, "ftclos {}: LIDs as the topology file gives them (--guid2lid FILE: OpenSM's own)\n", command);
  else if (carries_every_lid(fabric))
    fmt::print(stderr,
               "ftclos {}: LMC {} instead of the topology file's {}: LIDs are ftclos's own, as OpenSM would "
               "renumber\n",
               command, lmc, subnet_lmc);
  else
    fmt::print(stderr,
               "ftclos {}: LIDs are ftclos's own, not the subnet's (--guid2lid FILE: OpenSM's, from its "
               "guid2lid cache)\n",
               command);
  return assign_lids(fabric, lmc);
}

CLI::Option* add_json(CLI::App& app, std::string& path) {
  return app.add_option("--json", path, "Also write the results as JSON to FILE ('-' for stdout)")->type_name("FILE");
}

std::string json_text(const nlohmann::json& document) {
  return document.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

namespace {

// Regular files are the same by device and inode; files not there yet by
// their path; anything else (/dev/null, a FIFO) is never the same.
bool same_file(const std::string& a, const std::string& b) {
  if (a.empty() || b.empty() || a == "-" || b == "-") return false;
  struct stat a_info, b_info;
  const bool a_exists = ::stat(a.c_str(), &a_info) == 0, b_exists = ::stat(b.c_str(), &b_info) == 0;
  if (a_exists && b_exists)
    return S_ISREG(a_info.st_mode) && a_info.st_dev == b_info.st_dev && a_info.st_ino == b_info.st_ino;
  if (a_exists || b_exists) return false;
  const auto resolved = [](const std::string& path) {
    std::error_code error;  // a path that cannot be resolved is compared as given
    std::filesystem::path canonical = std::filesystem::weakly_canonical(std::filesystem::absolute(path, error), error);
    return error ? std::filesystem::path(path).lexically_normal() : canonical;
  };
  return resolved(a) == resolved(b);
}

}  // namespace

Status check_distinct_outputs(const std::vector<NamedPath>& inputs, const std::vector<NamedPath>& outputs) {
  for (size_t i = 0; i < outputs.size(); ++i) {
    const NamedPath& output = outputs[i];
    for (const NamedPath& input : inputs)
      if (same_file(output.path, input.path))
        return Status::Error(fmt::format("{} {} is the input {} ({}): writing it would destroy what is read; "
                                         "give the output another file",
                                         output.name, output.path, input.name, input.path));
    for (size_t j = 0; j < i; ++j)
      if (same_file(output.path, outputs[j].path))
        return Status::Error(fmt::format("{} and {} both name {}: each output needs a file of its own",
                                         outputs[j].name, output.name, output.path));
  }
  return Status::Ok();
}

std::vector<NamedPath> topology_inputs(const std::string& topology, const HintFiles& hints) {
  return {{"TOPO", topology},
          {"--cn-guid-file", hints.cn_guid_file},
          {"--io-guid-file", hints.io_guid_file},
          {"--root-guid-file", hints.root_guid_file}};
}

Status Outputs::add(const std::string& path, const TextProducer& produce) {
  if (path != "-") return files_.write(path, produce);
  to_stdout_.push_back(produce);
  return Status::Ok();
}

Status Outputs::commit() {
  const auto sink = [](std::string_view chunk) {
    return std::fwrite(chunk.data(), 1, chunk.size(), stdout) == chunk.size();
  };
  for (const TextProducer& produce : to_stdout_)
    if (!produce(sink) || std::fflush(stdout) != 0)
      return Status::Error(fmt::format("cannot write standard output: {}", std::strerror(errno)));
  return files_.commit();
}

Status write_output(const std::string& path, const std::string& text) {
  if (path != "-") return write_file(path, text);
  Outputs standard_output;
  if (Status status = standard_output.add(path, [&](const TextSink& sink) { return sink(text); }); !status.ok())
    return status;
  return standard_output.commit();
}

int bad_input(const std::string& command, const Status& status) {
  fmt::print(stderr, "ftclos {}: {}\n", command, status.message());
  return 2;
}

void set_quiet(bool quiet) { g_quiet = quiet; }

Progress::Progress(std::string command) : command_(std::move(command)), start_(seconds_now()) {}

void Progress::stage(const std::string& what) {
  if (g_quiet || !isatty(STDERR_FILENO)) return;
  fmt::print(stderr, "ftclos {}: {} ({:.1f} s)\n", command_, what, seconds_now() - start_);
}

}  // namespace ftclos::cli
