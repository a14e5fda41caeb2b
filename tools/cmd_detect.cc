// ftclos detect FILE [--json]: what family the fabric is, with coordinates
// and deviations.
#include <cstdio>
#include <iostream>
#include <memory>

#include "commands.h"
#include "core/netfile.h"
#include "detect/detect.h"
#include "detect/summary.h"
#include "report/detect_json.h"

namespace ftclos::cli {

void add_detect(CLI::App& app) {
  struct Options {
    std::string file;
    bool json = false;
  };
  auto options = std::make_shared<Options>();
  CLI::App* sub = app.add_subcommand("detect", "Recognize the fabric family, label every node, list deviations");
  sub->add_option("FILE", options->file, "Fabric in ibnetdiscover / ibsim net-file format")->required();
  sub->add_flag("--json", options->json, "Print JSON instead of the summary");
  sub->callback([options] {
    Result<Fabric> fabric = read_netfile(options->file);
    if (!fabric.ok()) {
      std::cerr << "ftclos detect: " << fabric.status().message() << "\n";
      set_exit_code(2);
      return;
    }
    const Detection detection = detect(*fabric);
    if (options->json)
      std::cout << detection_json(*fabric, detection).dump(2) << "\n";
    else
      std::cout << detection_summary(*fabric, detection);
    set_exit_code(detection.families.empty() ? 1 : 0);
  });
}

}  // namespace ftclos::cli
