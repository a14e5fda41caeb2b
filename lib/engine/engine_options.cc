#include "engine/engine_options.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <memory>
#include <optional>
#include <sstream>

#include "core/workers.h"
#include "route/routing.h"

namespace ftclos {
namespace {

// More threads than any host has cores is a typo.
constexpr int kMaxJobs = 1024;

// A whole number from `low` to `high`, all of `value`; nullopt otherwise.
std::optional<long> number_in(std::string_view value, long low, long high) {
  long number = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), number);
  if (error != std::errc() || end != value.data() + value.size() || number < low || number > high) return std::nullopt;
  return number;
}

}  // namespace

Result<EngineOptions> parse_engine_options(std::string_view text) {
  EngineOptions options;
  std::string words(text);
  for (char& c : words)
    if (c == ',' || c == '\t') c = ' ';
  std::istringstream in(words);
  std::map<std::string, std::string> given;  // key -> its word, so a repeat is named
  for (std::string word; in >> word;) {
    const size_t eq = word.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == word.size())
      return Status::Error(fmt::format("option \"{}\" is not key=value", word));
    const std::string key = word.substr(0, eq), value = word.substr(eq + 1);
    if (const auto [first, added] = given.emplace(key, word); !added)
      return Status::Error(fmt::format("{} is given twice (\"{}\", then \"{}\"); give it once", key,
                                       first->second, word));
    if (key == "scheme") {
      Result<std::unique_ptr<Scheme>> scheme = make_scheme(value);
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
    } else if (key == "keep_tables") {
      if (value != "on" && value != "off")
        return Status::Error(fmt::format("keep_tables={}: expected on or off", value));
      options.keep_tables = value == "on";
    } else if (key == "trade_off_audit") {
      if (value != "on" && value != "off")
        return Status::Error(fmt::format("trade_off_audit={}: expected on or off", value));
      options.trade_off_audit = value == "on";
    } else if (key == "steps") {
      if (value != "auto" && value != "wait") return Status::Error(fmt::format("steps={}: expected auto or wait", value));
      options.steps_wait = value == "wait";
    } else if (key == "polish") {
      if (value != "on" && value != "off") return Status::Error(fmt::format("polish={}: expected on or off", value));
      options.polish = value == "on";
    } else if (key == "repair_polish_work") {
      const std::optional<long> work = number_in(value, 0, kFullPolishWork);
      if (!work)
        return Status::Error(
            fmt::format("repair_polish_work={}: expected a work budget from 0 to {}", value, kFullPolishWork));
      options.repair_polish_work = *work;
    } else if (key == "pathbits_users") {
      if (value != "some" && value != "all")
        return Status::Error(fmt::format("pathbits_users={}: expected some or all", value));
      options.path_bits_users = value == "all" ? PathBitsUsers::kAll : PathBitsUsers::kSome;
    } else if (key == "jobs") {
      const std::optional<long> jobs = number_in(value, 1, kMaxJobs);
      if (!jobs) return Status::Error(fmt::format("jobs={}: expected a thread count from 1 to {}", value, kMaxJobs));
      options.jobs = static_cast<int>(*jobs);
    } else if (key == "cn_guid_file") {
      options.hint_files.cn_guid_file = value;
    } else if (key == "io_guid_file") {
      options.hint_files.io_guid_file = value;
    } else if (key == "root_guid_file") {
      options.hint_files.root_guid_file = value;
    } else if (key == "report_dir") {
      options.report = value != "off";
      options.report_dir = options.report ? value : "";
    } else {
      return Status::Error(fmt::format("unknown option \"{}\" (known: scheme, pathbits_file, lmc_shortfall, "
                                       "unreachable, keep_tables, trade_off_audit, steps, polish, repair_polish_work, pathbits_users, jobs, cn_guid_file, io_guid_file, "
                                       "root_guid_file, report_dir)",
                                       key));
    }
  }
  return options;
}

int sweep_threads(const EngineOptions& options) {
  if (options.jobs > 0) return options.jobs;
  return std::min(available_cpus(), kDefaultJobsCap);
}

}  // namespace ftclos
