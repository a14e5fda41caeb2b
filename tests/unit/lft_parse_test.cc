// Reading LFTs back: real output of OpenSM 3.3.23 and infiniband-diags 44
// captured against ibsim, round trips through write_lft_dump, LMC ranges,
// and the errors malformed input gets.
#include "audit/lft_parse.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <ranges>
#include <string>
#include <vector>

#include "core/files.h"
#include "core/netfile.h"
#include "detect/detect.h"
#include "tables/lft_dump.h"
#include "route/routing.h"

namespace ftclos {
namespace {

// ftclos gen clos2 --n 2 --m 2 --r 2: two leaves, two spines, four hosts.
constexpr char kTinyNet[] = R"txt(# Fabric written by ftclos in the ibnetdiscover / ibsim net-file format.

switchguid=0xf7c1000000000001
Switch	4 "L1-0"
[1]	"H-0.0"[1]
[2]	"H-0.1"[1]
[3]	"L2-0"[1]
[4]	"L2-1"[1]

switchguid=0xf7c1000000000002
Switch	4 "L1-1"
[1]	"H-1.0"[1]
[2]	"H-1.1"[1]
[3]	"L2-0"[2]
[4]	"L2-1"[2]

switchguid=0xf7c1000000000003
Switch	2 "L2-0"
[1]	"L1-0"[3]
[2]	"L1-1"[3]

switchguid=0xf7c1000000000004
Switch	2 "L2-1"
[1]	"L1-0"[4]
[2]	"L1-1"[4]

caguid=0xf7c1100000000100
Hca	1 "H-0.0"
[1](f7c1100000000101)	"L1-0"[1]

caguid=0xf7c1100000000200
Hca	1 "H-0.1"
[1](f7c1100000000201)	"L1-0"[2]

caguid=0xf7c1100000000300
Hca	1 "H-1.0"
[1](f7c1100000000301)	"L1-1"[1]

caguid=0xf7c1100000000400
Hca	1 "H-1.1"
[1](f7c1100000000401)	"L1-1"[2]
)txt";

// opensm-lfts.dump of OpenSM 3.3.23 (routing_engine updn, lmc 0) on kTinyNet in ibsim.
constexpr char kOpenSmDump[] = R"txt(Unicast lids [0-8] of switch Lid 2 guid 0xf7c1000000000001 ('L1-0'):
0x0001 001 # Channel Adapter portguid 0xf7c1100000000101: 'H-0.0'
0x0002 000 # Switch portguid 0xf7c1000000000001: 'L1-0'
0x0003 002 # Channel Adapter portguid 0xf7c1100000000201: 'H-0.1'
0x0004 003 # Channel Adapter portguid 0xf7c1100000000301: 'H-1.0'
0x0005 004 # Channel Adapter portguid 0xf7c1100000000401: 'H-1.1'
0x0006 003 # Switch portguid 0xf7c1000000000002: 'L1-1'
0x0007 003 # Switch portguid 0xf7c1000000000003: 'L2-0'
0x0008 004 # Switch portguid 0xf7c1000000000004: 'L2-1'
8 lids dumped
Unicast lids [0-8] of switch Lid 6 guid 0xf7c1000000000002 ('L1-1'):
0x0001 003 # Channel Adapter portguid 0xf7c1100000000101: 'H-0.0'
0x0002 003 # Switch portguid 0xf7c1000000000001: 'L1-0'
0x0003 004 # Channel Adapter portguid 0xf7c1100000000201: 'H-0.1'
0x0004 001 # Channel Adapter portguid 0xf7c1100000000301: 'H-1.0'
0x0005 002 # Channel Adapter portguid 0xf7c1100000000401: 'H-1.1'
0x0006 000 # Switch portguid 0xf7c1000000000002: 'L1-1'
0x0007 003 # Switch portguid 0xf7c1000000000003: 'L2-0'
0x0008 004 # Switch portguid 0xf7c1000000000004: 'L2-1'
8 lids dumped
Unicast lids [0-8] of switch Lid 7 guid 0xf7c1000000000003 ('L2-0'):
0x0001 001 # Channel Adapter portguid 0xf7c1100000000101: 'H-0.0'
0x0002 001 # Switch portguid 0xf7c1000000000001: 'L1-0'
0x0003 001 # Channel Adapter portguid 0xf7c1100000000201: 'H-0.1'
0x0004 002 # Channel Adapter portguid 0xf7c1100000000301: 'H-1.0'
0x0005 002 # Channel Adapter portguid 0xf7c1100000000401: 'H-1.1'
0x0006 002 # Switch portguid 0xf7c1000000000002: 'L1-1'
0x0007 000 # Switch portguid 0xf7c1000000000003: 'L2-0'
8 lids dumped
Unicast lids [0-8] of switch Lid 8 guid 0xf7c1000000000004 ('L2-1'):
0x0001 001 # Channel Adapter portguid 0xf7c1100000000101: 'H-0.0'
0x0002 001 # Switch portguid 0xf7c1000000000001: 'L1-0'
0x0003 001 # Channel Adapter portguid 0xf7c1100000000201: 'H-0.1'
0x0004 002 # Channel Adapter portguid 0xf7c1100000000301: 'H-1.0'
0x0005 002 # Channel Adapter portguid 0xf7c1100000000401: 'H-1.1'
0x0006 002 # Switch portguid 0xf7c1000000000002: 'L1-1'
0x0008 000 # Switch portguid 0xf7c1000000000004: 'L2-1'
8 lids dumped
)txt";

// `ibroute 2`, `ibroute 6`, `ibroute 7`, `ibroute 8` (infiniband-diags 44) on the same subnet.
constexpr char kIbroute[] = R"txt(Unicast lids [0x0-0x8] of switch Lid 2 guid 0xf7c1000000000001 (L1-0):
  Lid  Out   Destination
       Port     Info 
0x0001 001 : (Channel Adapter portguid 0xf7c1100000000101: 'H-0.0')
0x0002 000 : (Switch portguid 0xf7c1000000000001: 'L1-0')
0x0003 002 : (Channel Adapter portguid 0xf7c1100000000201: 'H-0.1')
0x0004 003 : (Channel Adapter portguid 0xf7c1100000000301: 'H-1.0')
0x0005 004 : (Channel Adapter portguid 0xf7c1100000000401: 'H-1.1')
0x0006 003 : (Switch portguid 0xf7c1000000000002: 'L1-1')
0x0007 003 : (Switch portguid 0xf7c1000000000003: 'L2-0')
0x0008 004 : (Switch portguid 0xf7c1000000000004: 'L2-1')
8 valid lids dumped 
Unicast lids [0x0-0x8] of switch Lid 6 guid 0xf7c1000000000002 (L1-1):
  Lid  Out   Destination
       Port     Info 
0x0001 003 : (Channel Adapter portguid 0xf7c1100000000101: 'H-0.0')
0x0002 003 : (Switch portguid 0xf7c1000000000001: 'L1-0')
0x0003 004 : (Channel Adapter portguid 0xf7c1100000000201: 'H-0.1')
0x0004 001 : (Channel Adapter portguid 0xf7c1100000000301: 'H-1.0')
0x0005 002 : (Channel Adapter portguid 0xf7c1100000000401: 'H-1.1')
0x0006 000 : (Switch portguid 0xf7c1000000000002: 'L1-1')
0x0007 003 : (Switch portguid 0xf7c1000000000003: 'L2-0')
0x0008 004 : (Switch portguid 0xf7c1000000000004: 'L2-1')
8 valid lids dumped 
Unicast lids [0x0-0x8] of switch Lid 7 guid 0xf7c1000000000003 (L2-0):
  Lid  Out   Destination
       Port     Info 
0x0001 001 : (Channel Adapter portguid 0xf7c1100000000101: 'H-0.0')
0x0002 001 : (Switch portguid 0xf7c1000000000001: 'L1-0')
0x0003 001 : (Channel Adapter portguid 0xf7c1100000000201: 'H-0.1')
0x0004 002 : (Channel Adapter portguid 0xf7c1100000000301: 'H-1.0')
0x0005 002 : (Channel Adapter portguid 0xf7c1100000000401: 'H-1.1')
0x0006 002 : (Switch portguid 0xf7c1000000000002: 'L1-1')
0x0007 000 : (Switch portguid 0xf7c1000000000003: 'L2-0')
7 valid lids dumped 
Unicast lids [0x0-0x8] of switch Lid 8 guid 0xf7c1000000000004 (L2-1):
  Lid  Out   Destination
       Port     Info 
0x0001 001 : (Channel Adapter portguid 0xf7c1100000000101: 'H-0.0')
0x0002 001 : (Switch portguid 0xf7c1000000000001: 'L1-0')
0x0003 001 : (Channel Adapter portguid 0xf7c1100000000201: 'H-0.1')
0x0004 002 : (Channel Adapter portguid 0xf7c1100000000301: 'H-1.0')
0x0005 002 : (Channel Adapter portguid 0xf7c1100000000401: 'H-1.1')
0x0006 002 : (Switch portguid 0xf7c1000000000002: 'L1-1')
0x0008 000 : (Switch portguid 0xf7c1000000000004: 'L2-1')
7 valid lids dumped 
)txt";

// `dump_lfts` after OpenSM (routing_engine minhop, lmc 1) on kTinyNet: blocks named by DR path.
constexpr char kDumpLftsLmc1[] = R"txt(Unicast lids [0x0-0xe] of switch DR path slid 0; dlid 0; 0,1,3,2 guid 0xf7c1000000000002 (L1-1):
  Lid  Out   Destination
       Port     Info 
0x0002 003 : (Channel Adapter portguid 0xf7c1100000000101: 'H-0.0')
0x0003 004 : (path #2 out of 2: portguid 0xf7c1100000000101)
0x0004 003 : (Switch portguid 0xf7c1000000000001: 'L1-0')
0x0006 004 : (Channel Adapter portguid 0xf7c1100000000201: 'H-0.1')
0x0007 003 : (path #2 out of 2: portguid 0xf7c1100000000201)
0x0008 001 : (Channel Adapter portguid 0xf7c1100000000301: 'H-1.0')
0x0009 001 : (path #2 out of 2: portguid 0xf7c1100000000301)
0x000a 002 : (Channel Adapter portguid 0xf7c1100000000401: 'H-1.1')
0x000b 002 : (path #2 out of 2: portguid 0xf7c1100000000401)
0x000c 000 : (Switch portguid 0xf7c1000000000002: 'L1-1')
0x000d 003 : (Switch portguid 0xf7c1000000000003: 'L2-0')
0x000e 004 : (Switch portguid 0xf7c1000000000004: 'L2-1')
12 valid lids dumped 
Unicast lids [0x0-0xe] of switch DR path slid 0; dlid 0; 0,1,4 guid 0xf7c1000000000004 (L2-1):
  Lid  Out   Destination
       Port     Info 
0x0002 001 : (Channel Adapter portguid 0xf7c1100000000101: 'H-0.0')
0x0003 001 : (path #2 out of 2: portguid 0xf7c1100000000101)
0x0004 001 : (Switch portguid 0xf7c1000000000001: 'L1-0')
0x0006 001 : (Channel Adapter portguid 0xf7c1100000000201: 'H-0.1')
0x0007 001 : (path #2 out of 2: portguid 0xf7c1100000000201)
0x0008 002 : (Channel Adapter portguid 0xf7c1100000000301: 'H-1.0')
0x0009 002 : (path #2 out of 2: portguid 0xf7c1100000000301)
0x000a 002 : (Channel Adapter portguid 0xf7c1100000000401: 'H-1.1')
0x000b 002 : (path #2 out of 2: portguid 0xf7c1100000000401)
0x000c 002 : (Switch portguid 0xf7c1000000000002: 'L1-1')
0x000d 001 : (Switch portguid 0xf7c1000000000003: 'L2-0')
0x000e 000 : (Switch portguid 0xf7c1000000000004: 'L2-1')
12 valid lids dumped 
Unicast lids [0x0-0xe] of switch DR path slid 0; dlid 0; 0,1,3 guid 0xf7c1000000000003 (L2-0):
  Lid  Out   Destination
       Port     Info 
0x0002 001 : (Channel Adapter portguid 0xf7c1100000000101: 'H-0.0')
0x0003 001 : (path #2 out of 2: portguid 0xf7c1100000000101)
0x0004 001 : (Switch portguid 0xf7c1000000000001: 'L1-0')
0x0006 001 : (Channel Adapter portguid 0xf7c1100000000201: 'H-0.1')
0x0007 001 : (path #2 out of 2: portguid 0xf7c1100000000201)
0x0008 002 : (Channel Adapter portguid 0xf7c1100000000301: 'H-1.0')
0x0009 002 : (path #2 out of 2: portguid 0xf7c1100000000301)
0x000a 002 : (Channel Adapter portguid 0xf7c1100000000401: 'H-1.1')
0x000b 002 : (path #2 out of 2: portguid 0xf7c1100000000401)
0x000c 002 : (Switch portguid 0xf7c1000000000002: 'L1-1')
0x000d 000 : (Switch portguid 0xf7c1000000000003: 'L2-0')
0x000e 001 : (Switch portguid 0xf7c1000000000004: 'L2-1')
12 valid lids dumped 
Unicast lids [0x0-0xe] of switch DR path slid 0; dlid 0; 0,1 guid 0xf7c1000000000001 (L1-0):
  Lid  Out   Destination
       Port     Info 
0x0002 001 : (Channel Adapter portguid 0xf7c1100000000101: 'H-0.0')
0x0003 001 : (path #2 out of 2: portguid 0xf7c1100000000101)
0x0004 000 : (Switch portguid 0xf7c1000000000001: 'L1-0')
0x0006 002 : (Channel Adapter portguid 0xf7c1100000000201: 'H-0.1')
0x0007 002 : (path #2 out of 2: portguid 0xf7c1100000000201)
0x0008 003 : (Channel Adapter portguid 0xf7c1100000000301: 'H-1.0')
0x0009 004 : (path #2 out of 2: portguid 0xf7c1100000000301)
0x000a 004 : (Channel Adapter portguid 0xf7c1100000000401: 'H-1.1')
0x000b 003 : (path #2 out of 2: portguid 0xf7c1100000000401)
0x000c 003 : (Switch portguid 0xf7c1000000000002: 'L1-1')
0x000d 003 : (Switch portguid 0xf7c1000000000003: 'L2-0')
0x000e 004 : (Switch portguid 0xf7c1000000000004: 'L2-1')
12 valid lids dumped 

*** WARNING ***: this command has been replaced by dump_fts


)txt";

// OpenSM's own opensm-lfts.dump of that run.
constexpr char kOpenSmDumpLmc1[] = R"txt(Unicast lids [0-14] of switch Lid 4 guid 0xf7c1000000000001 ('L1-0'):
0x0002 001 # Channel Adapter portguid 0xf7c1100000000101: 'H-0.0'
0x0003 001 # Channel Adapter portguid 0xf7c1100000000101: 'H-0.0'
0x0004 000 # Switch portguid 0xf7c1000000000001: 'L1-0'
0x0006 002 # Channel Adapter portguid 0xf7c1100000000201: 'H-0.1'
0x0007 002 # Channel Adapter portguid 0xf7c1100000000201: 'H-0.1'
0x0008 003 # Channel Adapter portguid 0xf7c1100000000301: 'H-1.0'
0x0009 004 # Channel Adapter portguid 0xf7c1100000000301: 'H-1.0'
0x000a 004 # Channel Adapter portguid 0xf7c1100000000401: 'H-1.1'
0x000b 003 # Channel Adapter portguid 0xf7c1100000000401: 'H-1.1'
0x000c 003 # Switch portguid 0xf7c1000000000002: 'L1-1'
0x000d 003 # Switch portguid 0xf7c1000000000003: 'L2-0'
0x000e 004 # Switch portguid 0xf7c1000000000004: 'L2-1'
14 lids dumped
Unicast lids [0-14] of switch Lid 12 guid 0xf7c1000000000002 ('L1-1'):
0x0002 003 # Channel Adapter portguid 0xf7c1100000000101: 'H-0.0'
0x0003 004 # Channel Adapter portguid 0xf7c1100000000101: 'H-0.0'
0x0004 003 # Switch portguid 0xf7c1000000000001: 'L1-0'
0x0006 004 # Channel Adapter portguid 0xf7c1100000000201: 'H-0.1'
0x0007 003 # Channel Adapter portguid 0xf7c1100000000201: 'H-0.1'
0x0008 001 # Channel Adapter portguid 0xf7c1100000000301: 'H-1.0'
0x0009 001 # Channel Adapter portguid 0xf7c1100000000301: 'H-1.0'
0x000a 002 # Channel Adapter portguid 0xf7c1100000000401: 'H-1.1'
0x000b 002 # Channel Adapter portguid 0xf7c1100000000401: 'H-1.1'
0x000c 000 # Switch portguid 0xf7c1000000000002: 'L1-1'
0x000d 003 # Switch portguid 0xf7c1000000000003: 'L2-0'
0x000e 004 # Switch portguid 0xf7c1000000000004: 'L2-1'
14 lids dumped
Unicast lids [0-14] of switch Lid 13 guid 0xf7c1000000000003 ('L2-0'):
0x0002 001 # Channel Adapter portguid 0xf7c1100000000101: 'H-0.0'
0x0003 001 # Channel Adapter portguid 0xf7c1100000000101: 'H-0.0'
0x0004 001 # Switch portguid 0xf7c1000000000001: 'L1-0'
0x0006 001 # Channel Adapter portguid 0xf7c1100000000201: 'H-0.1'
0x0007 001 # Channel Adapter portguid 0xf7c1100000000201: 'H-0.1'
0x0008 002 # Channel Adapter portguid 0xf7c1100000000301: 'H-1.0'
0x0009 002 # Channel Adapter portguid 0xf7c1100000000301: 'H-1.0'
0x000a 002 # Channel Adapter portguid 0xf7c1100000000401: 'H-1.1'
0x000b 002 # Channel Adapter portguid 0xf7c1100000000401: 'H-1.1'
0x000c 002 # Switch portguid 0xf7c1000000000002: 'L1-1'
0x000d 000 # Switch portguid 0xf7c1000000000003: 'L2-0'
0x000e 001 # Switch portguid 0xf7c1000000000004: 'L2-1'
14 lids dumped
Unicast lids [0-14] of switch Lid 14 guid 0xf7c1000000000004 ('L2-1'):
0x0002 001 # Channel Adapter portguid 0xf7c1100000000101: 'H-0.0'
0x0003 001 # Channel Adapter portguid 0xf7c1100000000101: 'H-0.0'
0x0004 001 # Switch portguid 0xf7c1000000000001: 'L1-0'
0x0006 001 # Channel Adapter portguid 0xf7c1100000000201: 'H-0.1'
0x0007 001 # Channel Adapter portguid 0xf7c1100000000201: 'H-0.1'
0x0008 002 # Channel Adapter portguid 0xf7c1100000000301: 'H-1.0'
0x0009 002 # Channel Adapter portguid 0xf7c1100000000301: 'H-1.0'
0x000a 002 # Channel Adapter portguid 0xf7c1100000000401: 'H-1.1'
0x000b 002 # Channel Adapter portguid 0xf7c1100000000401: 'H-1.1'
0x000c 002 # Switch portguid 0xf7c1000000000002: 'L1-1'
0x000d 001 # Switch portguid 0xf7c1000000000003: 'L2-0'
0x000e 000 # Switch portguid 0xf7c1000000000004: 'L2-1'
14 lids dumped
)txt";

// OpenSM's guid2lid of that run.
constexpr char kGuid2LidLmc1[] = R"txt(0xf7c1000000000002 0x000c 0x000c

0xf7c1100000000401 0x000a 0x000b

0xf7c1000000000003 0x000d 0x000d

0xf7c1000000000004 0x000e 0x000e

0xf7c1100000000201 0x0006 0x0007

0xf7c1100000000301 0x0008 0x0009

0xf7c1000000000001 0x0004 0x0004

0xf7c1100000000101 0x0002 0x0003

)txt";

// OpenSM's opensm-subnet.lst of that run.
constexpr char kSubnetLstLmc1[] = R"txt({ CA-SM Ports:01 SystemGUID:f7c1100000000100 NodeGUID:f7c1100000000100 PortGUID:f7c1100000000101 VenID:000000 DevID:0000 Rev:000000A1 {H-0.0} LID:0002 PN:01 } { SW Ports:04 SystemGUID:f7c1000000000001 NodeGUID:f7c1000000000001 PortGUID:f7c1000000000001 VenID:00000000 DevID:0000 Rev:000000A1 {L1-0} LID:0004 PN:01 } PHY=4x LOG=ACT SPD=2.5
{ CA Ports:01 SystemGUID:f7c1100000000200 NodeGUID:f7c1100000000200 PortGUID:f7c1100000000201 VenID:000000 DevID:0000 Rev:000000A1 {H-0.1} LID:0006 PN:01 } { SW Ports:04 SystemGUID:f7c1000000000001 NodeGUID:f7c1000000000001 PortGUID:f7c1000000000001 VenID:00000000 DevID:0000 Rev:000000A1 {L1-0} LID:0004 PN:02 } PHY=4x LOG=ACT SPD=2.5
{ CA Ports:01 SystemGUID:f7c1100000000300 NodeGUID:f7c1100000000300 PortGUID:f7c1100000000301 VenID:000000 DevID:0000 Rev:000000A1 {H-1.0} LID:0008 PN:01 } { SW Ports:04 SystemGUID:f7c1000000000002 NodeGUID:f7c1000000000002 PortGUID:f7c1000000000002 VenID:00000000 DevID:0000 Rev:000000A1 {L1-1} LID:000C PN:01 } PHY=4x LOG=ACT SPD=2.5
{ CA Ports:01 SystemGUID:f7c1100000000400 NodeGUID:f7c1100000000400 PortGUID:f7c1100000000401 VenID:000000 DevID:0000 Rev:000000A1 {H-1.1} LID:000A PN:01 } { SW Ports:04 SystemGUID:f7c1000000000002 NodeGUID:f7c1000000000002 PortGUID:f7c1000000000002 VenID:00000000 DevID:0000 Rev:000000A1 {L1-1} LID:000C PN:02 } PHY=4x LOG=ACT SPD=2.5
{ SW Ports:04 SystemGUID:f7c1000000000001 NodeGUID:f7c1000000000001 PortGUID:f7c1000000000001 VenID:000000 DevID:0000 Rev:000000A1 {L1-0} LID:0004 PN:01 } { CA-SM Ports:01 SystemGUID:f7c1100000000100 NodeGUID:f7c1100000000100 PortGUID:f7c1100000000101 VenID:00000000 DevID:0000 Rev:000000A1 {H-0.0} LID:0002 PN:01 } PHY=4x LOG=ACT SPD=2.5
{ SW Ports:04 SystemGUID:f7c1000000000001 NodeGUID:f7c1000000000001 PortGUID:f7c1000000000001 VenID:000000 DevID:0000 Rev:000000A1 {L1-0} LID:0004 PN:02 } { CA Ports:01 SystemGUID:f7c1100000000200 NodeGUID:f7c1100000000200 PortGUID:f7c1100000000201 VenID:00000000 DevID:0000 Rev:000000A1 {H-0.1} LID:0006 PN:01 } PHY=4x LOG=ACT SPD=2.5
{ SW Ports:04 SystemGUID:f7c1000000000001 NodeGUID:f7c1000000000001 PortGUID:f7c1000000000001 VenID:000000 DevID:0000 Rev:000000A1 {L1-0} LID:0004 PN:03 } { SW Ports:02 SystemGUID:f7c1000000000003 NodeGUID:f7c1000000000003 PortGUID:f7c1000000000003 VenID:00000000 DevID:0000 Rev:000000A1 {L2-0} LID:000D PN:01 } PHY=4x LOG=ACT SPD=2.5
{ SW Ports:04 SystemGUID:f7c1000000000001 NodeGUID:f7c1000000000001 PortGUID:f7c1000000000001 VenID:000000 DevID:0000 Rev:000000A1 {L1-0} LID:0004 PN:04 } { SW Ports:02 SystemGUID:f7c1000000000004 NodeGUID:f7c1000000000004 PortGUID:f7c1000000000004 VenID:00000000 DevID:0000 Rev:000000A1 {L2-1} LID:000E PN:01 } PHY=4x LOG=ACT SPD=2.5
{ SW Ports:04 SystemGUID:f7c1000000000002 NodeGUID:f7c1000000000002 PortGUID:f7c1000000000002 VenID:000000 DevID:0000 Rev:000000A1 {L1-1} LID:000C PN:01 } { CA Ports:01 SystemGUID:f7c1100000000300 NodeGUID:f7c1100000000300 PortGUID:f7c1100000000301 VenID:00000000 DevID:0000 Rev:000000A1 {H-1.0} LID:0008 PN:01 } PHY=4x LOG=ACT SPD=2.5
{ SW Ports:04 SystemGUID:f7c1000000000002 NodeGUID:f7c1000000000002 PortGUID:f7c1000000000002 VenID:000000 DevID:0000 Rev:000000A1 {L1-1} LID:000C PN:02 } { CA Ports:01 SystemGUID:f7c1100000000400 NodeGUID:f7c1100000000400 PortGUID:f7c1100000000401 VenID:00000000 DevID:0000 Rev:000000A1 {H-1.1} LID:000A PN:01 } PHY=4x LOG=ACT SPD=2.5
{ SW Ports:04 SystemGUID:f7c1000000000002 NodeGUID:f7c1000000000002 PortGUID:f7c1000000000002 VenID:000000 DevID:0000 Rev:000000A1 {L1-1} LID:000C PN:03 } { SW Ports:02 SystemGUID:f7c1000000000003 NodeGUID:f7c1000000000003 PortGUID:f7c1000000000003 VenID:00000000 DevID:0000 Rev:000000A1 {L2-0} LID:000D PN:02 } PHY=4x LOG=ACT SPD=2.5
{ SW Ports:04 SystemGUID:f7c1000000000002 NodeGUID:f7c1000000000002 PortGUID:f7c1000000000002 VenID:000000 DevID:0000 Rev:000000A1 {L1-1} LID:000C PN:04 } { SW Ports:02 SystemGUID:f7c1000000000004 NodeGUID:f7c1000000000004 PortGUID:f7c1000000000004 VenID:00000000 DevID:0000 Rev:000000A1 {L2-1} LID:000E PN:02 } PHY=4x LOG=ACT SPD=2.5
{ SW Ports:02 SystemGUID:f7c1000000000003 NodeGUID:f7c1000000000003 PortGUID:f7c1000000000003 VenID:000000 DevID:0000 Rev:000000A1 {L2-0} LID:000D PN:01 } { SW Ports:04 SystemGUID:f7c1000000000001 NodeGUID:f7c1000000000001 PortGUID:f7c1000000000001 VenID:00000000 DevID:0000 Rev:000000A1 {L1-0} LID:0004 PN:03 } PHY=4x LOG=ACT SPD=2.5
{ SW Ports:02 SystemGUID:f7c1000000000003 NodeGUID:f7c1000000000003 PortGUID:f7c1000000000003 VenID:000000 DevID:0000 Rev:000000A1 {L2-0} LID:000D PN:02 } { SW Ports:04 SystemGUID:f7c1000000000002 NodeGUID:f7c1000000000002 PortGUID:f7c1000000000002 VenID:00000000 DevID:0000 Rev:000000A1 {L1-1} LID:000C PN:03 } PHY=4x LOG=ACT SPD=2.5
{ SW Ports:02 SystemGUID:f7c1000000000004 NodeGUID:f7c1000000000004 PortGUID:f7c1000000000004 VenID:000000 DevID:0000 Rev:000000A1 {L2-1} LID:000E PN:01 } { SW Ports:04 SystemGUID:f7c1000000000001 NodeGUID:f7c1000000000001 PortGUID:f7c1000000000001 VenID:00000000 DevID:0000 Rev:000000A1 {L1-0} LID:0004 PN:04 } PHY=4x LOG=ACT SPD=2.5
{ SW Ports:02 SystemGUID:f7c1000000000004 NodeGUID:f7c1000000000004 PortGUID:f7c1000000000004 VenID:000000 DevID:0000 Rev:000000A1 {L2-1} LID:000E PN:02 } { SW Ports:04 SystemGUID:f7c1000000000002 NodeGUID:f7c1000000000002 PortGUID:f7c1000000000002 VenID:00000000 DevID:0000 Rev:000000A1 {L1-1} LID:000C PN:04 } PHY=4x LOG=ACT SPD=2.5
)txt";

Fabric tiny() {
  Result<Fabric> fabric = parse_netfile(kTinyNet, "tiny.net");
  EXPECT_TRUE(fabric.ok()) << fabric.status().message();
  return std::move(*fabric);
}

int node(const Fabric& fabric, const char* name) { return *fabric.find(name); }

LftRead parse_ok(const Fabric& fabric, std::vector<TextFile> files, const TextFile* lid_file = nullptr) {
  Result<LftRead> read = parse_lfts(fabric, files, lid_file);
  EXPECT_TRUE(read.ok()) << read.status().message();
  return read.ok() ? std::move(*read) : LftRead{};
}

std::string parse_error(const Fabric& fabric, std::string text, const char* name = "lfts.dump") {
  Result<LftRead> read = parse_lfts(fabric, {{name, std::move(text)}});
  EXPECT_FALSE(read.ok());
  return read.status().message();
}

void expect_same(const LftRead& a, const LftRead& b) {
  EXPECT_EQ(a.lids.lmc, b.lids.lmc);
  EXPECT_EQ(a.lids.base, b.lids.base);
  EXPECT_EQ(a.lids.owner, b.lids.owner);
  EXPECT_EQ(a.lids.max_lid, b.lids.max_lid);
  EXPECT_EQ(a.lfts.port, b.lfts.port);
}

// Replaces the first `from` in `text` by `to`.
std::string edit(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

TEST(LftParse, OpenSmDump) {
  const Fabric fabric = tiny();
  const LftRead read = parse_ok(fabric, {{"lfts.dump", kOpenSmDump}});
  EXPECT_EQ(read.lids.lmc, 0);
  EXPECT_EQ(read.lids.max_lid, 8);
  const char* by_lid[] = {"H-0.0", "L1-0", "H-0.1", "H-1.0", "H-1.1", "L1-1", "L2-0", "L2-1"};
  for (int lid = 1; lid <= 8; ++lid) {
    EXPECT_EQ(read.lids.owner[lid], node(fabric, by_lid[lid - 1])) << lid;
    EXPECT_EQ(read.lids.base[node(fabric, by_lid[lid - 1])], lid);
  }
  const int l10 = node(fabric, "L1-0"), l20 = node(fabric, "L2-0");
  EXPECT_EQ(read.lfts.at(l10, 1), 1);
  EXPECT_EQ(read.lfts.at(l10, 2), 0);
  EXPECT_EQ(read.lfts.at(l10, 4), 3);
  EXPECT_EQ(read.lfts.at(l20, 8), kNoPath);  // updn gives root L2-0 no route to root L2-1
  EXPECT_TRUE(read.lfts.port[node(fabric, "H-0.0")].empty());
  EXPECT_EQ(read.unknown_lids, 0);
  EXPECT_TRUE(read.warnings.empty());
}

TEST(LftParse, IbrouteBlocksInSeveralFilesReadAsOpenSmDump) {
  const Fabric fabric = tiny();
  const std::string text = kIbroute;
  const size_t third_block = text.find("Unicast lids", text.find("Unicast lids", 1) + 1);
  const LftRead read = parse_ok(fabric, {{"a.txt", text.substr(0, third_block)}, {"b.txt", text.substr(third_block)}});
  expect_same(read, parse_ok(fabric, {{"lfts.dump", kOpenSmDump}}));
}

TEST(LftParse, DumpLftsWithLmc1) {
  const Fabric fabric = tiny();
  const LftRead read = parse_ok(fabric, {{"dump_lfts.txt", kDumpLftsLmc1}});
  EXPECT_EQ(read.lids.lmc, 1);
  EXPECT_EQ(read.lids.max_lid, 14);
  const int h00 = node(fabric, "H-0.0"), h11 = node(fabric, "H-1.1");
  EXPECT_EQ(read.lids.base[h00], 2);
  EXPECT_EQ(read.lids.owner[3], h00);  // "path #2 out of 2: portguid ..."
  EXPECT_EQ(read.lids.base[h11], 10);
  EXPECT_EQ(read.lids.base[node(fabric, "L1-0")], 4);
  EXPECT_EQ(read.lids.owner[1], -1);  // holes left by the 2-LID alignment
  EXPECT_EQ(read.lids.owner[5], -1);
  // minhop spreads the two LIDs of H-1.1 over both spines at leaf L1-0.
  EXPECT_EQ(read.lfts.at(node(fabric, "L1-0"), 10), 4);
  EXPECT_EQ(read.lfts.at(node(fabric, "L1-0"), 11), 3);
  expect_same(read, parse_ok(fabric, {{"lfts.dump", kOpenSmDumpLmc1}}));
}

TEST(LftParse, LidFilesAgreeWithTheTables) {
  const Fabric fabric = tiny();
  const LftRead plain = parse_ok(fabric, {{"dump_lfts.txt", kDumpLftsLmc1}});
  const TextFile guid2lid{"guid2lid", kGuid2LidLmc1}, subnet{"opensm-subnet.lst", kSubnetLstLmc1};
  expect_same(parse_ok(fabric, {{"dump_lfts.txt", kDumpLftsLmc1}}, &guid2lid), plain);
  expect_same(parse_ok(fabric, {{"dump_lfts.txt", kDumpLftsLmc1}}, &subnet), plain);
  // guid2lid with the LIDs of H-0.0 and H-1.1 swapped.
  const TextFile wrong{"guid2lid", edit(edit(kGuid2LidLmc1, "0x000a 0x000b", "0x0002 0x0003"),
                                        "0101 0x0002 0x0003", "0101 0x000a 0x000b")};
  Result<LftRead> read = parse_lfts(fabric, {{"dump_lfts.txt", kDumpLftsLmc1}}, &wrong);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().message(),
            "dump_lfts.txt:4: LID 0x2 belongs to port GUID 0xf7c1100000000101 here but to 0xf7c1100000000401 at "
            "guid2lid:3");
}

// Route kTinyNet with a scheme of ours at `lmc`, write the dump, read it back.
void round_trip(int lmc) {
  const Fabric fabric = tiny();
  Result<LidMap> lids = assign_lids(fabric, lmc);
  ASSERT_TRUE(lids.ok()) << lids.status().message();
  const Detection detection = detect(fabric);
  Result<std::unique_ptr<Scheme>> scheme = make_scheme("updown");
  ASSERT_TRUE(scheme.ok());
  Result<Routing> routing = (*scheme)->route({fabric, detection, *lids});
  ASSERT_TRUE(routing.ok()) << routing.status().message();
  const LftRead read = parse_ok(fabric, {{"ours.dump", write_lft_dump(fabric, *lids, routing->lfts)}});
  EXPECT_EQ(read.lids.lmc, lmc);
  EXPECT_EQ(read.lids.base, lids->base);
  EXPECT_EQ(read.lids.owner, lids->owner);
  EXPECT_EQ(read.lids.max_lid, lids->max_lid);
  Lfts expected = routing->lfts;
  for (std::vector<uint8_t>& table : expected.port)
    if (!table.empty()) table.resize(lids->max_lid + 1, kNoPath);
  EXPECT_EQ(read.lfts.port, expected.port);
}

TEST(LftParse, RoundTripLmc0) { round_trip(0); }
TEST(LftParse, RoundTripLmc2) { round_trip(2); }

TEST(LftParse, UnknownLidsAreCountedNotDropped) {
  const Fabric fabric = tiny();
  std::string text = edit(kOpenSmDump, "Unicast lids [0-8] of switch Lid 2", "Unicast lids [0-9] of switch Lid 2");
  text = edit(text, "8 lids dumped", "0x0009 003 # unknown node and type\n9 lids dumped");
  const LftRead read = parse_ok(fabric, {{"lfts.dump", text}});
  EXPECT_EQ(read.unknown_lids, 1);
  EXPECT_EQ(read.lids.max_lid, 9);
  EXPECT_EQ(read.lids.owner[9], -1);
  EXPECT_EQ(read.lfts.at(node(fabric, "L1-0"), 9), 3);
  ASSERT_EQ(read.warnings.size(), 1u);
  EXPECT_EQ(read.warnings[0],
            "1 routed LIDs belong to no switch or CA port 1 of the topology (first: 0x9); routes to them are not "
            "audited");
}

TEST(LftParse, MissingSwitchIsAWarning) {
  const Fabric fabric = tiny();
  const std::string text = kOpenSmDump;
  const LftRead read = parse_ok(fabric, {{"lfts.dump", text.substr(0, text.rfind("Unicast lids"))}});
  ASSERT_EQ(read.warnings.size(), 1u);
  EXPECT_EQ(read.warnings[0], "1 switches have no table in the input (first: \"L2-1\"); every LID reads as unrouted there");
  EXPECT_EQ(read.lfts.at(node(fabric, "L2-1"), 1), kNoPath);
}

// infiniband-diags skips the LFT block that holds LinearFDBTop when it is a
// multiple of 64 (seen with 64 LIDs: header [0x0-0x40], no 0x0040 entry).
TEST(LftParse, IbrouteSkippedBlockIsAWarning) {
  const Fabric fabric = tiny();
  const std::string text = edit(kIbroute, "Unicast lids [0x0-0x8] of switch Lid 2", "Unicast lids [0x0-0x40] of switch Lid 2");
  const LftRead read = parse_ok(fabric, {{"ibroute.txt", text}});
  ASSERT_EQ(read.warnings.size(), 1u);
  EXPECT_EQ(read.warnings[0],
            "1 ibroute/dump_fts blocks end at a multiple of 64 (first: ibroute.txt:1, LID 0x40): infiniband-diags "
            "skips the LFT block holding LinearFDBTop then, so that LID reads as unrouted; opensm-lfts.dump or "
            "ibsim's Dump has it");
}

TEST(LftParse, Errors) {
  const Fabric fabric = tiny();
  const std::string dump = kOpenSmDump;
  EXPECT_EQ(parse_error(fabric, dump.substr(0, dump.find("8 lids dumped"))),
            "lfts.dump:9: truncated block: switch \"L1-0\" from line 1 has no \"N lids dumped\" line");
  EXPECT_EQ(parse_error(fabric, edit(dump, "8 lids dumped\nUnicast lids [0-8] of switch Lid 6", "Unicast lids [0-8] of switch Lid 6")),
            "lfts.dump:10: truncated block: switch \"L1-0\" from line 1 has no \"N lids dumped\" line");
  EXPECT_EQ(parse_error(fabric, edit(dump, "0x0003 002", "0x00g3 002")),
            "lfts.dump:4: expected \"0xLLLL PPP\" entry, got \"0x00g3 002 # Channel Adapter portguid "
            "0xf7c1100000000201: 'H-0.1'\"");
  EXPECT_EQ(parse_error(fabric, edit(dump, "Lid 6 guid 0xf7c1000000000002", "Lid 6 guid 0xf7c1000000000099")),
            "lfts.dump:11: switch GUID 0xf7c1000000000099 is not a switch of the topology");
  EXPECT_EQ(parse_error(fabric, edit(dump, "0x0005 004", "0x0005 005")),
            "lfts.dump:6: port 5 is above the 4 ports of switch \"L1-0\"");
  EXPECT_EQ(parse_error(fabric, edit(dump, "8 lids dumped", "7 lids dumped")),
            "lfts.dump:10: \"7 lids dumped\" but the header's range ends at 8");
  EXPECT_EQ(parse_error(fabric, edit(kIbroute, "8 valid lids dumped", "9 valid lids dumped"), "ibroute.txt"),
            "ibroute.txt:12: \"9 valid lids dumped\" but the block has 8 entries");
  EXPECT_EQ(parse_error(fabric, edit(kIbroute, "  Lid  Out   Destination\n", ""), "ibroute.txt"),
            "ibroute.txt:2: expected ibroute's \"Lid  Out   Destination\" column line");
  EXPECT_EQ(parse_error(fabric, "hello\n"),
            "lfts.dump:1: expected \"Unicast lids [A-B] of switch ... guid 0x...:\" header (opensm-lfts.dump, ibroute) "
            "or \"dump_ucast_routes: Switch 0x...\" (opensm.fdbs), got \"hello\"");
  EXPECT_EQ(parse_error(fabric, dump + dump),
            "lfts.dump:39: switch \"L1-0\" (0xf7c1000000000001) was already read at lfts.dump:1");
  EXPECT_EQ(parse_error(fabric, edit(dump, "0x0003 002 # Channel Adapter portguid 0xf7c1100000000201",
                                     "0x0003 002 # Channel Adapter portguid 0xf7c1100000000401")),
            "lfts.dump:14: LID 0x3 belongs to port GUID 0xf7c1100000000201 here but to 0xf7c1100000000401 at "
            "lfts.dump:4");
}

TEST(LftParse, NegativeSwitchLidIsAnError) {
  const Fabric fabric = tiny();
  EXPECT_EQ(parse_error(fabric, edit(kOpenSmDump, "switch Lid 2 guid", "switch Lid -3 guid")),
            "lfts.dump:1: expected \"Unicast lids [A-B] of switch ... guid 0x...:\" header (opensm-lfts.dump, ibroute) "
            "or \"dump_ucast_routes: Switch 0x...\" (opensm.fdbs), got \"Unicast lids [0-8] "
            "of switch Lid -3 guid 0xf7c1000000000001 ('L1-0'):\"");
}

TEST(LftParse, SwitchLidAboveUnicastIsAnError) {
  const Fabric fabric = tiny();
  EXPECT_EQ(parse_error(fabric, edit(kOpenSmDump, "switch Lid 2 guid", "switch Lid 65535 guid")),
            "lfts.dump:1: switch LID 0xffff is not unicast (at most 0xbfff)");
  EXPECT_EQ(parse_error(fabric, edit(kOpenSmDump, "switch Lid 2 guid", "switch Lid 49152 guid")),
            "lfts.dump:1: switch LID 0xc000 is not unicast (at most 0xbfff)");
}

TEST(LftParse, NegativePortIsAnError) {
  const Fabric fabric = tiny();
  EXPECT_EQ(parse_error(fabric, edit(kOpenSmDump, "0x0005 004", "0x0005 -5")),
            "lfts.dump:6: expected \"0xLLLL PPP\" entry, got \"0x0005 -5 # Channel Adapter portguid "
            "0xf7c1100000000401: 'H-1.1'\"");
}

TEST(LftParse, Port255IsADroppedLid) {
  const Fabric fabric = tiny();
  const LftRead read = parse_ok(fabric, {{"lfts.dump", edit(kOpenSmDump, "0x0005 004", "0x0005 255")}});
  EXPECT_EQ(read.lfts.at(node(fabric, "L1-0"), 5), kNoPath);
  EXPECT_EQ(read.lids.owner[5], node(fabric, "H-1.1"));  // still H-1.1's LID, now unreachable from L1-0
  EXPECT_EQ(read.lfts.at(node(fabric, "L1-1"), 5), 2);
}

TEST(LftParse, LmcErrors) {
  const Fabric fabric = tiny();
  // H-0.0 loses its second LID: 1 LID against 2 for everyone else.
  std::string text = kDumpLftsLmc1;
  for (size_t at; (at = text.find("(path #2 out of 2: portguid 0xf7c1100000000101)")) != std::string::npos;)
    text.replace(at, 47, "(unknown node and type)");
  EXPECT_EQ(parse_error(fabric, text, "dump_lfts.txt"),
            "CA \"H-0.0\" owns 1 LIDs from 0x2 (named at dump_lfts.txt:4) but \"H-0.1\" owns 2: the LMC must be the "
            "same for every CA");
}

TEST(PathBitsParse, Lines) {
  const Fabric fabric = tiny();
  Result<std::vector<int>> bits =
      parse_path_bits(fabric, 2, {"bits", "# comment\n0xf7c1100000000101 3\n\n0xf7c1100000000401 1\n"});
  ASSERT_TRUE(bits.ok()) << bits.status().message();
  EXPECT_EQ((*bits)[node(fabric, "H-0.0")], 3);
  EXPECT_EQ((*bits)[node(fabric, "H-1.1")], 1);
  EXPECT_EQ((*bits)[node(fabric, "H-0.1")], 0);
}

TEST(PathBitsParse, Errors) {
  const Fabric fabric = tiny();
  auto error = [&](const char* text, int lmc = 2) {
    Result<std::vector<int>> bits = parse_path_bits(fabric, lmc, {"bits", text});
    EXPECT_FALSE(bits.ok());
    return bits.status().message();
  };
  EXPECT_EQ(error("0xf7c1100000000101 3\nf7c1100000000201 x\n"), "bits:2: expected \"0xGUID BITS\" line");
  EXPECT_EQ(error("0xf7c1100000000101 3 4\n"), "bits:1: expected \"0xGUID BITS\" line");
  EXPECT_EQ(error("0xf7c1000000000001 1\n"), "bits:1: port GUID 0xf7c1000000000001 is not port 1 of a CA in the topology");
  EXPECT_EQ(error("0xf7c1100000000101 2\n", 1), "bits:1: path bits 2 of \"H-0.0\" do not fit LMC 1");
  EXPECT_EQ(error("0xf7c1100000000101 1\n0xf7c1100000000101 0\n"),
            "bits:2: path bits of \"H-0.0\" were already given at line 1");
}

TEST(PathBitsParse, NegativeBitsAreAnError) {
  const Fabric fabric = tiny();
  // "0x-f7c11" is what the fuzzer found: a sign after the hex prefix.
  for (const char* text :
       {"0xf7c1100000000101 -1\n", "0xf7c1100000000101 -2147483648\n", "0xf7c1100000000101 0x-f7c11\n"}) {
    Result<std::vector<int>> bits = parse_path_bits(fabric, 2, {"bits", text});
    ASSERT_FALSE(bits.ok()) << text;
    EXPECT_EQ(bits.status().message(), "bits:1: expected \"0xGUID BITS\" line");
  }
}

// An empty file (or one of comments only) would put every CA on offset 0
// under the name "path bits": refused, naming the file.
TEST(PathBitsParse, EmptyOrCommentOnlyFileIsAnError) {
  const Fabric fabric = tiny();
  for (const char* text : {"", "\n\n", "# path bits of nobody\n"}) {
    Result<std::vector<int>> bits = parse_path_bits(fabric, 2, {"bits", text});
    ASSERT_FALSE(bits.ok()) << '"' << text << '"';
    EXPECT_EQ(bits.status().message(), "bits: no path bits: expected \"0xGUID BITS\" lines for the CAs of the fabric");
  }
}

// opensm.fdbs (dump_ucast_routes) of the same tables as kOpenSmDump: no
// GUIDs in it, so the LIDs come from a guid2lid file.
std::string as_fdbs(std::string_view dump) {
  std::string out;
  for (size_t start = 0, end; start < dump.size(); start = end + 1) {
    end = std::min(dump.find('\n', start), dump.size());
    const std::string_view line = dump.substr(start, end - start);
    if (line.starts_with("Unicast lids")) {
      const size_t guid = line.find("guid ") + 5;
      out += fmt::format("dump_ucast_routes: Switch {}\nLID    : Port : Hops : Optimal\n",
                         line.substr(guid, line.find(' ', guid) - guid));
    } else if (line.starts_with("0x")) {
      out += fmt::format("0x{:04X} : {}  : 01   : yes\n", std::stoi(std::string(line.substr(2, 4)), nullptr, 16),
                         line.substr(7, 3));
    }
  }
  return out;
}

constexpr char kTinyGuid2Lid[] =
    "0xf7c1100000000101 1 1\n0xf7c1000000000001 2 2\n0xf7c1100000000201 3 3\n0xf7c1100000000301 4 4\n"
    "0xf7c1100000000401 5 5\n0xf7c1000000000002 6 6\n0xf7c1000000000003 7 7\n0xf7c1000000000004 8 8\n";

TEST(LftParse, FdbsWithGuid2LidReadsAsTheDump) {
  const Fabric fabric = tiny();
  const TextFile lids{"guid2lid", kTinyGuid2Lid};
  expect_same(parse_ok(fabric, {{"opensm.fdbs", as_fdbs(kOpenSmDump)}}, &lids),
              parse_ok(fabric, {{"lfts.dump", kOpenSmDump}}));
}

TEST(LftParse, FdbsUnreachableLidIsUnrouted) {
  const Fabric fabric = tiny();
  const TextFile lids{"guid2lid", kTinyGuid2Lid};
  std::string fdbs = as_fdbs(kOpenSmDump);
  fdbs.replace(fdbs.find("0x0004 : 003  : 01   : yes"), 26, "0x0004 : UNREACHABLE");
  const LftRead read = parse_ok(fabric, {{"opensm.fdbs", fdbs}}, &lids);
  EXPECT_EQ(read.lfts.at(node(fabric, "L1-0"), 4), kNoPath);
  EXPECT_EQ(read.lfts.at(node(fabric, "L1-1"), 4), 1);
}

TEST(LftParse, FdbsWithoutAnyLidsIsAnError) {
  EXPECT_EQ(parse_error(tiny(), as_fdbs(kOpenSmDump), "opensm.fdbs"),
            "opensm.fdbs: opensm.fdbs names no port GUIDs and the topology has no LIDs; expected --guid2lid FILE "
            "(OpenSM's guid2lid or opensm-subnet.lst) or a topology with LIDs (ibnetdiscover's)");
}

TEST(LftParse, FdbsDamagedEntryNamesItsLine) {
  std::string fdbs = as_fdbs(kOpenSmDump);
  fdbs.replace(fdbs.find("0x0003 : 002  : 01   : yes"), 26, "0x0003 : 0");
  fdbs.replace(fdbs.find("0x0003 : 0\n"), 10, "0x0003 :");
  EXPECT_EQ(parse_error(tiny(), fdbs, "opensm.fdbs"),
            "opensm.fdbs:5: expected \"0xLLLL : PPP : HOPS : yes\" or \"0xLLLL : UNREACHABLE\" (opensm.fdbs), got "
            "\"0x0003 :\"");
}

TEST(LftParse, EmptyFileIsAnError) {
  EXPECT_EQ(parse_error(tiny(), "", "empty.dump"),
            "empty.dump: no switch's table; expected \"Unicast lids [A-B] of switch ...\" blocks (opensm-lfts.dump, "
            "ibroute or dump_lfts output) or opensm.fdbs's \"dump_ucast_routes: Switch 0x...\"");
  EXPECT_NE(parse_error(tiny(), "\n\n"), "");
}

// A 3 MB line was echoed whole in the error; now the reading stops at 64 KiB
// and names the line, mapped or not, and a shorter bad line is quoted in part.
TEST(LftParse, OverlongLineIsRefusedAndNotEchoed) {
  const std::string dump = std::string(kOpenSmDump) + std::string(3 << 20, 'x') + "\n";
  const std::string error = parse_error(tiny(), dump);
  EXPECT_EQ(error.substr(0, error.find(": a line")), fmt::format("lfts.dump:{}", std::ranges::count(std::string(kOpenSmDump), '\n') + 1));
  EXPECT_LT(error.size(), 300u);
  const std::string quoted = parse_error(tiny(), std::string(60000, 'y') + "\n");
  EXPECT_NE(quoted.find("... (59800 more bytes)"), std::string::npos) << quoted.substr(0, 300);
  EXPECT_LT(quoted.size(), 400u);
  const std::string path = ::testing::TempDir() + "lft_parse_overlong.dump";
  ASSERT_TRUE(write_file(path, dump).ok());
  Result<TextFile> file = read_text_file(path);
  ASSERT_TRUE(file.ok()) << file.status().message();
  Result<LftRead> read = parse_lfts(tiny(), {*file});
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.status().message().find(path + ":"), std::string::npos) << read.status().message();
  EXPECT_NE(read.status().message().find("a line of more than 64 KiB"), std::string::npos);
}

// A file on disk is mapped, and reads as the same text held in memory;
// errors still name the file and line.
TEST(LftParse, MappedFileReadsAsTheTextInMemory) {
  const Fabric fabric = tiny();
  const std::string path = ::testing::TempDir() + "lft_parse_mapped.dump";
  ASSERT_TRUE(write_file(path, std::string(kOpenSmDump)).ok());
  Result<TextFile> file = read_text_file(path);
  ASSERT_TRUE(file.ok()) << file.status().message();
  EXPECT_NE(file->mapped, nullptr);
  expect_same(parse_ok(fabric, {*file}), parse_ok(fabric, {{"lfts.dump", kOpenSmDump}}));
  ASSERT_TRUE(write_file(path, "Unicast lids [0-3] of switch Lid 1 guid 0x00000000000000ff ('x'):\n").ok());
  Result<TextFile> bad = read_text_file(path);
  ASSERT_TRUE(bad.ok());
  Result<LftRead> read = parse_lfts(fabric, {*bad});
  ASSERT_FALSE(read.ok());
  EXPECT_TRUE(read.status().message().starts_with(path + ":1: ")) << read.status().message();
  std::remove(path.c_str());
}

}  // namespace
}  // namespace ftclos
