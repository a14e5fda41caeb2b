// The path bits a scheme gives every CA, in a form job launchers can read:
// one line per CA port, `0x<port GUID> <bits>`. A host looks itself up by
// port GUID and exports UCX_IB_LID_PATH_BITS=<bits>.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

#include "core/fabric.h"
#include "core/files.h"
#include "core/status.h"
#include "route/routing.h"

namespace ftclos {

/// The ports LIDs are addressed to, by port_guid (core/fabric.h): a switch's port 0 and every CA port.
std::unordered_map<uint64_t, PortRef> index_port_guids(const Fabric& fabric);

/// Hands the lines to `sink` in chunks of about a megabyte (a file need not
/// be held whole); false when the sink refuses one.
bool write_path_bits(const Fabric& fabric, const Routing& routing, const TextSink& sink);
std::string write_path_bits(const Fabric& fabric, const Routing& routing);

/// The CA a job prolog asks about: `key` is one of its port GUIDs (hex,
/// "0x" optional, as `ibstat -p` prints them) or its node name. Fails naming
/// the key when no CA has it.
Result<int> find_ca(const Fabric& fabric, std::string_view key);

}  // namespace ftclos
