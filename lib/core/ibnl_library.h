// Where the IBNL definition of a system type is: ibdm loads every .ibnl file
// of its directories and knows a type by any name a TOPSYSTEM line gives it
// (MT23108 is Cougar.ibnl's). Here a type is looked up on demand, directory
// by directory, and each file is parsed once.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/ibnl.h"
#include "core/status.h"

namespace ftclos {

class IbnlLibrary {
 public:
  explicit IbnlLibrary(std::vector<std::string> dirs) : dirs_(std::move(dirs)) {}

  /// The file whose TOPSYSTEM has the name `type`: in each directory in turn,
  /// DIR/TYPE.ibnl when it declares the type, else the first .ibnl file (by
  /// name) that does; null when none does. Fails with the parse error of the
  /// file found.
  Result<const IbnlFile*> find(const std::string& type);

 private:
  struct Candidate {
    std::string path;
    std::vector<std::string> names;  // its TOPSYSTEM names
  };
  const std::vector<Candidate>& candidates(const std::string& dir);
  Result<const IbnlFile*> load(const std::string& path);

  std::vector<std::string> dirs_;
  std::map<std::string, std::vector<Candidate>> candidates_;  // by directory, read once
  std::map<std::string, std::unique_ptr<IbnlFile>> files_;    // by path; pointers handed out stay valid
};

}  // namespace ftclos
