// GUIDs for nodes that an input names but gives no GUID (ibsim's own net
// examples, ibdm .topo fabrics): derived from the name, so they are the same
// on every run and machine and do not change when other nodes are renamed or
// reordered.
#pragma once

#include "core/fabric.h"

namespace ftclos {

/// Gives every node whose GUID is 0 the GUID derived from its name: FNV-1a
/// of the name, top byte 0x02 (away from vendor OUIs), low byte 0 (a CA's
/// port p is GUID + p, as ibsim numbers them); on a collision with a GUID in
/// use, the next multiple of 0x100 that is free. A switch's port 0 gets the
/// node GUID too.
void assign_name_guids(Fabric& fabric);

}  // namespace ftclos
