#include "model/interval_set.hpp"

#include <algorithm>
#include <cctype>

#include "common/fatal.hpp"

namespace datasched {

namespace {
int parse_non_negative(const std::string& token, const std::string& whole)
{
  if (token.empty() || !std::all_of(token.begin(), token.end(), [](unsigned char c) { return std::isdigit(c); }))
    throw InputError("invalid interval set '" + whole + "': '" + token + "' is not a non-negative integer");
  try {
    return std::stoi(token);
  } catch (const std::exception&) {
    throw InputError("invalid interval set '" + whole + "': '" + token + "' is out of range");
  }
}
} // namespace

IntervalSet IntervalSet::from_string(const std::string& text)
{
  IntervalSet result;
  std::string token;
  auto flush = [&]() {
    if (token.empty())
      return;
    auto dash = token.find('-');
    if (dash == std::string::npos) {
      result.insert(parse_non_negative(token, text));
    } else {
      int first = parse_non_negative(token.substr(0, dash), text);
      int last  = parse_non_negative(token.substr(dash + 1), text);
      if (last < first)
        throw InputError("invalid interval set '" + text + "': interval '" + token + "' is reversed");
      result.insert(first, last);
    }
    token.clear();
  };
  for (char c : text) {
    if (c == ' ' || c == ',' || c == '\t')
      flush();
    else
      token.push_back(c);
  }
  flush();
  return result;
}

void IntervalSet::insert(int value)
{
  insert(value, value);
}

void IntervalSet::insert(int first, int last)
{
  // Merge [first,last] into the sorted list, coalescing overlapping/adjacent intervals.
  std::vector<std::pair<int, int>> merged;
  merged.reserve(intervals_.size() + 1);
  bool placed = false;
  for (const auto& iv : intervals_) {
    if (iv.second + 1 < first) {
      merged.push_back(iv);
    } else if (last + 1 < iv.first) {
      if (!placed) {
        merged.emplace_back(first, last);
        placed = true;
      }
      merged.push_back(iv);
    } else {
      first = std::min(first, iv.first);
      last  = std::max(last, iv.second);
    }
  }
  if (!placed)
    merged.emplace_back(first, last);
  intervals_ = std::move(merged);
  size_      = 0;
  for (const auto& iv : intervals_)
    size_ += iv.second - iv.first + 1;
}

void IntervalSet::insert(const IntervalSet& other)
{
  for (const auto& iv : other.intervals_)
    insert(iv.first, iv.second);
}

bool IntervalSet::contains(int value) const
{
  auto it = std::upper_bound(intervals_.begin(), intervals_.end(), value,
                             [](int v, const std::pair<int, int>& iv) { return v < iv.first; });
  if (it == intervals_.begin())
    return false;
  --it;
  return value <= it->second;
}

int IntervalSet::first() const
{
  if (intervals_.empty())
    throw InputError("empty interval set has no first element");
  return intervals_.front().first;
}

std::vector<int> IntervalSet::elements() const
{
  std::vector<int> out;
  out.reserve(size_);
  for (const auto& iv : intervals_)
    for (int v = iv.first; v <= iv.second; ++v)
      out.push_back(v);
  return out;
}

std::string IntervalSet::to_string(const std::string& separator) const
{
  std::string out;
  for (size_t i = 0; i < intervals_.size(); ++i) {
    if (i > 0)
      out += separator;
    out += std::to_string(intervals_[i].first);
    if (intervals_[i].second != intervals_[i].first)
      out += "-" + std::to_string(intervals_[i].second);
  }
  return out;
}

} // namespace datasched
