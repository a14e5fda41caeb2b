// ftclos detect TOPO [--json FILE]: what family the fabric is, with
// coordinates and deviations; the summary on stdout unless the JSON goes there.
#include <cstdio>
#include <iostream>
#include <memory>

#include "cli_common.h"
#include "commands.h"
#include "detect/detect.h"
#include "detect/summary.h"
#include "report/detect_json.h"

namespace ftclos::cli {

void add_detect(CLI::App& app) {
  struct Options {
    std::string file;
    std::string json;  // empty: none
    HintFiles hint_files;
  };
  auto options = std::make_shared<Options>();
  CLI::App* sub = app.add_subcommand("detect", "Recognize the fabric family, label every node, list deviations");
  add_topology(*sub, options->file);
  add_json(*sub, options->json);
  add_host_hints(*sub, options->hint_files);
  sub->callback([options] {
    if (Status status = check_distinct_outputs(topology_inputs(options->file, options->hint_files),
                                               {{"--json", options->json}});
        !status.ok())
      return set_exit_code(bad_input("detect", status));
    Result<Fabric> fabric = read_topology("detect", options->file);
    if (!fabric.ok()) return set_exit_code(bad_input("detect", fabric.status()));
    Result<HostHints> hints = read_hints("detect", options->hint_files, *fabric);
    if (!hints.ok()) return set_exit_code(bad_input("detect", hints.status()));
    const Detection detection = detect(*fabric, *hints);
    if (options->json != "-") std::cout << detection_summary(*fabric, detection) << std::flush;
    if (!options->json.empty())
      if (Status status = write_output(options->json, json_text(detection_json(*fabric, detection))); !status.ok())
        return set_exit_code(bad_input("detect", status));
    set_exit_code(detection.families.empty() ? 1 : 0);
  });
}

}  // namespace ftclos::cli
