#pragma once
// A set of non-negative integers stored as sorted, disjoint, non-adjacent closed
// intervals. Batsim's protocol writes resource sets this way ("1 3-5").
#include <string>
#include <utility>
#include <vector>

namespace datasched {

class IntervalSet {
public:
  IntervalSet() = default;

  /// Parses "1 3-5" (also accepts commas as separators). Throws InputError.
  static IntervalSet from_string(const std::string& text);

  void insert(int value);
  void insert(int first, int last);
  void insert(const IntervalSet& other);

  bool contains(int value) const;
  bool empty() const { return intervals_.empty(); }
  int size() const { return size_; }
  int first() const;
  std::vector<int> elements() const;
  const std::vector<std::pair<int, int>>& intervals() const { return intervals_; }

  /// "0-3 5" (Batsim's output format, `separator` between intervals).
  std::string to_string(const std::string& separator = " ") const;

  bool operator==(const IntervalSet& other) const { return intervals_ == other.intervals_; }

private:
  std::vector<std::pair<int, int>> intervals_;
  int size_ = 0;
};

} // namespace datasched
