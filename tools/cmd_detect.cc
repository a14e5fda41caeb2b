// ftclos detect TOPO [--json FILE]: what family the fabric is, with
// coordinates and deviations; the summary on stdout unless the JSON goes there.
#include <cstdio>
#include <iostream>
#include <memory>

#include "cli_common.h"
#include "commands.h"
#include "core/end_nodes.h"
#include "detect/detect.h"
#include "detect/host_hints.h"
#include "detect/summary.h"
#include "report/detect_json.h"

namespace ftclos::cli {

void add_detect(CLI::App& app) {
  struct Options {
    std::string file;
    std::string json;  // empty: none
    std::string cn_guid_file, io_guid_file, root_guid_file;
  };
  auto options = std::make_shared<Options>();
  CLI::App* sub = app.add_subcommand("detect", "Recognize the fabric family, label every node, list deviations");
  add_topology(*sub, options->file);
  add_json(*sub, options->json);
  sub->add_option("--cn-guid-file", options->cn_guid_file, "GUIDs of the compute CAs (OpenSM ftree's cn_guid_file)");
  sub->add_option("--io-guid-file", options->io_guid_file, "GUIDs of attached (I/O) CAs (OpenSM ftree's io_guid_file)");
  sub->add_option("--root-guid-file", options->root_guid_file, "GUIDs of the root switches (root_guid_file)");
  sub->callback([options] {
    Result<Fabric> fabric = read_end_nodes(options->file);
    if (!fabric.ok()) return set_exit_code(bad_input("detect", fabric.status()));
    Result<HostHints> hints = read_host_hints(options->cn_guid_file, options->io_guid_file, options->root_guid_file);
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
