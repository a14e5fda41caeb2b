// "updown-star": up*/down* (paths/updown_star.h), the floor that routes any
// connected fabric deadlock-free on one VL: rings, tori, hypercubes,
// dragonflies, trees with cables inside a level, vendor chassis of chassis.
// auto takes it last, where no scheme with levels to route by applies.
#include "schemes/schemes.h"
#include "paths/updown_star.h"

namespace ftclos {
namespace {

class UpDownStarScheme : public Scheme {
 public:
  std::string_view name() const override { return "updown-star"; }

  Status applies(const Detection& detection) const override {
    if (detection.star.roots.empty()) return Status::Error("updown-star: the fabric is not connected");
    return Status::Ok();
  }

 protected:
  Result<Routing> route_tables(const RoutingInput& input) const override {
    if (Status status = applies(input.detection); !status.ok()) return status;
    return route_updown_star(input);
  }
};

}  // namespace

std::unique_ptr<Scheme> make_updown_star_scheme() { return std::make_unique<UpDownStarScheme>(); }

}  // namespace ftclos
