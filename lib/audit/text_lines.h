// Line-by-line reading of the auditor's text inputs (LFT dumps, path bits,
// SL and SL2VL files): numbered lines, tokens and numbers as strtoul reads them.
#pragma once

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <functional>
#include <string_view>

#include "audit/lft_parse.h"

namespace ftclos::text {

inline std::string_view trim(std::string_view s) {
  const size_t first = s.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

inline bool consume(std::string_view& s, std::string_view prefix) {
  if (!s.starts_with(prefix)) return false;
  s.remove_prefix(prefix.size());
  return true;
}

// The next space-separated token of `s`, removed from it.
inline std::string_view take_token(std::string_view& s) {
  s = trim(s);
  const size_t end = std::min(s.find_first_of(" \t"), s.size());
  const std::string_view token = s.substr(0, end);
  s.remove_prefix(end);
  return token;
}

// A whole number as strtoul(s, 0) reads these files: "0x..." hex, else
// decimal. Nothing in them is negative, so a sign is an error, not a wrap.
template <class T>
bool parse_number(std::string_view s, T& out) {
  int base = 10;
  if (consume(s, "0x") || consume(s, "0X")) base = 16;
  if (s.empty() || s.starts_with('-')) return false;  // "-5" and "0x-5" alike
  const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), out, base);
  return error == std::errc() && end == s.data() + s.size();
}

// Calls `report` with 10, 20, ... as bytes of the whole input go by.
class Progress {
 public:
  Progress(const std::function<void(int)>& report, size_t total) : report_(report), total_(std::max<size_t>(total, 1)) {}
  void advance(size_t bytes) {
    done_ += bytes;
    while (report_ && next_ <= 100 && done_ * 100 >= next_ * total_) {
      report_(next_);
      next_ += 10;
    }
  }

 private:
  const std::function<void(int)>& report_;
  size_t total_;
  size_t done_ = 0;
  size_t next_ = 10;
};

// Numbered lines of a text, "\r\n" tolerated. A mapped file's pages are
// let go every kReleaseBytes as the reading moves on (it never goes back).
// A line longer than kMaxLineBytes ends the reading: next() returns false
// and status() says why, so every loop over the lines checks status() after.
class Lines {
 public:
  explicit Lines(const TextFile& file, Progress* progress = nullptr)
      : name_(file.name), text_(file.view()), mapped_(file.mapped.get()), progress_(progress) {}
  bool next(std::string_view& line) {
    if (mapped_ && pos_ >= released_ + kReleaseBytes) {
      mapped_->release_before(pos_);
      released_ = pos_;
    }
    if (pos_ >= text_.size() || too_long_) return false;
    // Looks no further than the limit: a file of zeros is not scanned to its end.
    const size_t newline = text_.substr(pos_, kMaxLineBytes + 1).find('\n');
    if (newline == std::string_view::npos && text_.size() - pos_ > kMaxLineBytes) {
      too_long_ = true;
      ++number_;
      return false;
    }
    const size_t end = newline == std::string_view::npos ? text_.size() : pos_ + newline;
    line = text_.substr(pos_, end - pos_);
    if (line.ends_with('\r')) line.remove_suffix(1);
    if (progress_) progress_->advance(end + 1 - pos_);
    pos_ = end + 1;
    ++number_;
    return true;
  }
  int number() const { return number_; }
  /// Ok, or the overlong line that stopped next().
  Status status() const { return too_long_ ? line_too_long(name_, number_) : Status::Ok(); }

 private:
  static constexpr size_t kReleaseBytes = 64 << 20;
  std::string_view name_;
  std::string_view text_;
  const MappedFile* mapped_;
  Progress* progress_;
  size_t pos_ = 0, released_ = 0;
  int number_ = 0;
  bool too_long_ = false;
};

}  // namespace ftclos::text
