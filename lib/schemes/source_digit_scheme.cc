#include "schemes/source_digit_scheme.h"

namespace ftclos {

Status SourceDigitScheme::applies(const Detection& detection) const { return require_tree_labels(detection, name()); }

int SourceDigitScheme::lmc_needed(const Detection& detection, PathBitsUsers users) const {
  return lmc_for_classes(full_classes(digit_values(detection.xgft->shape)), users);
}

Result<Routing> SourceDigitScheme::route_tables(const RoutingInput& in) const {
  if (Status status = applies(in.detection); !status.ok()) return status;
  const XgftShape& s = in.detection.xgft->shape;
  const DigitClasses digits(digit_values(s), class_lids(in));
  LabelRule rule;
  rule.classes = digits.classes;
  rule.class_of = [&digits](const std::vector<int>& src) { return digits.class_of(src); };
  rule.up_slot = [this, &digits, &s](int l, int c, const std::vector<int>& dst) {
    return up_slot(s, l, digits.digit(c, l), digits.radix[l], dst);
  };
  Routing routing = route_by_labels(in, rule);
  routing.lmc_needed = lmc_needed(in.detection, in.path_bits_users);
  add_notes(in, digits, routing);
  return routing;
}

}  // namespace ftclos
