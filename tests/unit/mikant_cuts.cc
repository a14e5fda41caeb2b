#include "mikant_cuts.h"

#include "detect/detect.h"

namespace ftclos {

void cut_straight_cables(Fabric& fabric) {
  const Detection detection = detect(fabric);
  const MikantLabels& labels = *detection.mikant;
  for (int x = 0; x < fabric.size(); ++x) {
    const bool block_top = labels.group[x] == 0 && labels.stage[x] == labels.n - 2 && labels.digits[x][0] == 0;
    if (!fabric.node(x).is_switch() || !block_top) continue;
    for (int p = 1; p <= fabric.node(x).num_ports; ++p) {
      const PortRef peer = fabric.peer({x, p});
      if (peer.valid() && labels.group[peer.node] == 1 && labels.digits[peer.node] == labels.digits[x])
        fabric.disconnect({x, p});
    }
  }
}

}  // namespace ftclos
