#include "protocol/decision_fast_reader.hpp"

#include <cmath>
#include <map>
#include <set>
#include <variant>

#include "common/batsim_number.hpp"
#include "common/fatal.hpp"

namespace datasched {

namespace {

using json = nlohmann::json;

/// The event types common_payload handles.
bool is_common_type(const std::string& type)
{
  static const std::set<std::string> common = {"EXECUTE_JOB", "REJECT_JOB",       "KILL_JOB",        "CALL_ME_LATER",
                                               "NOTIFY",      "SET_JOB_METADATA", "CHANGE_JOB_STATE"};
  return common.count(type) > 0;
}

/// One field of an event's "data" object, as far as the fast path needs to know it.
struct Number {
  double value;
};
struct Strings {
  std::vector<std::string> items;
};
struct Other {}; ///< null, boolean, object, or an array that is not all strings
using FieldValue = std::variant<std::string, Number, Strings, Other>;

struct PendingEvent {
  std::optional<std::string> type;
  std::optional<double> timestamp;
  bool has_data = false;
  std::map<std::string, FieldValue> data;
};

/// SAX consumer: records the message's structure and fails (returns false, which stops
/// the parse) on anything the fast path does not handle.
class CommonDecisionsSax {
public:
  std::optional<double> now;
  bool events_seen = false;
  std::vector<PendingEvent> events;

  bool null() { return scalar(Other{}); }
  bool boolean(bool) { return scalar(Other{}); }
  bool number_integer(json::number_integer_t v) { return scalar(Number{static_cast<double>(v)}); }
  bool number_unsigned(json::number_unsigned_t v) { return scalar(Number{static_cast<double>(v)}); }
  /// Converted from its text as Batsim converts it (batsim_number.hpp).
  bool number_float(json::number_float_t, const json::string_t& text)
  {
    return scalar(Number{batsim_json_number(text)});
  }
  bool string(json::string_t& v) { return scalar(std::move(v)); }
  bool binary(json::binary_t&) { return false; }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) { return false; }

  bool start_object(std::size_t)
  {
    if (skipping_ > 0 || in_data_list())
      return skip_nested();
    switch (level_) {
      case Level::Start:
        level_ = Level::Message;
        return true;
      case Level::Events:
        events.emplace_back();
        level_ = Level::Event;
        return true;
      case Level::Message:
        return skip_value();
      case Level::Event:
        if (key_ == "data") {
          if (events.back().has_data)
            return false; // a duplicate key: the general reader keeps the last one
          events.back().has_data = true;
          level_                 = Level::Data;
          return true;
        }
        return skip_value();
      case Level::Data:
        return store_field(Other{}) && skip_value();
      case Level::Done:
        return false;
    }
    return false;
  }

  bool end_object()
  {
    if (end_skipped())
      return true;
    switch (level_) {
      case Level::Message:
        level_ = Level::Done;
        return true;
      case Level::Event:
        level_ = Level::Events;
        return true;
      case Level::Data:
        level_ = Level::Event;
        return true;
      default:
        return false;
    }
  }

  bool start_array(std::size_t)
  {
    if (skipping_ > 0 || in_data_list())
      return skip_nested();
    switch (level_) {
      case Level::Message:
        if (key_ == "events") {
          if (events_seen)
            return false;
          events_seen = true;
          level_      = Level::Events;
          return true;
        }
        return skip_value();
      case Level::Event:
        return skip_value();
      case Level::Data:
        in_array_ = true;
        return store_field(Strings{});
      default:
        return false; // the message is an array, or an event is not an object
    }
  }

  bool end_array()
  {
    if (end_skipped())
      return true;
    if (level_ == Level::Events) {
      level_ = Level::Message;
      return true;
    }
    if (level_ == Level::Data && in_array_) {
      in_array_ = false;
      return true;
    }
    return false;
  }

  bool key(json::string_t& k)
  {
    if (skipping_ == 0)
      key_ = std::move(k);
    return true;
  }

  bool complete() const { return level_ == Level::Done; }

private:
  enum class Level { Start, Message, Events, Event, Data, Done };

  bool skip_value()
  {
    ++skipping_;
    return true;
  }

  bool in_data_list() const { return level_ == Level::Data && in_array_; }

  /// A container inside a skipped value, or inside a data field's list (which then is
  /// not a list of strings): skipped.
  bool skip_nested()
  {
    if (skipping_ == 0)
      mark_field_other();
    return skip_value();
  }

  /// Whether the container that ends was a skipped one.
  bool end_skipped()
  {
    if (skipping_ == 0)
      return false;
    --skipping_;
    return true;
  }

  bool store_field(FieldValue value)
  {
    auto [it, inserted] = events.back().data.emplace(key_, std::move(value));
    (void)it;
    return inserted; // a duplicate key: leave it to the general reader
  }

  void mark_field_other() { events.back().data[key_] = Other{}; }

  bool scalar(FieldValue value)
  {
    if (skipping_ > 0)
      return true;
    switch (level_) {
      case Level::Message:
        if (key_ == "now") {
          auto* n = std::get_if<Number>(&value);
          if (!n || now)
            return false;
          now = n->value;
          return true;
        }
        return !(key_ == "events"); // "events" must be an array
      case Level::Event: {
        PendingEvent& e = events.back();
        if (key_ == "type") {
          auto* s = std::get_if<std::string>(&value);
          if (!s || e.type || !is_common_type(*s))
            return false; // stop early: the general reader will parse this message
          e.type = std::move(*s);
        } else if (key_ == "timestamp") {
          auto* n = std::get_if<Number>(&value);
          if (!n || e.timestamp)
            return false;
          e.timestamp = n->value;
        } else if (key_ == "data") {
          return false; // data that is not an object
        }
        return true;
      }
      case Level::Data:
        if (in_array_) {
          auto* s     = std::get_if<std::string>(&value);
          auto& field = events.back().data[key_];
          if (auto* list = std::get_if<Strings>(&field); list && s)
            list->items.push_back(std::move(*s));
          else
            field = Other{};
          return true;
        }
        return store_field(std::move(value));
      default:
        return false; // a bare scalar as the whole message
    }
  }

  Level level_   = Level::Start;
  int skipping_  = 0;     ///< depth inside a value the fast path ignores
  bool in_array_ = false; ///< inside an array-valued data field
  std::string key_;
};

/// Typed access to a pending event's data; every getter returns nothing on a missing
/// or mistyped field.
class Fields {
public:
  explicit Fields(const std::map<std::string, FieldValue>& data) : data_(data) {}

  const std::string* string(const char* name) const
  {
    auto it = data_.find(name);
    return it == data_.end() ? nullptr : std::get_if<std::string>(&it->second);
  }
  const Number* number(const char* name) const
  {
    auto it         = data_.find(name);
    const Number* n = it == data_.end() ? nullptr : std::get_if<Number>(&it->second);
    return n && std::isfinite(n->value) ? n : nullptr;
  }
  const Strings* strings(const char* name) const
  {
    auto it = data_.find(name);
    return it == data_.end() ? nullptr : std::get_if<Strings>(&it->second);
  }
  bool has(const char* name) const { return data_.count(name) > 0; }

private:
  const std::map<std::string, FieldValue>& data_;
};

std::optional<DecisionPayload> common_payload(const std::string& type, const Fields& f)
{
  if (type == "EXECUTE_JOB") {
    const std::string* id    = f.string("job_id");
    const std::string* alloc = f.string("alloc");
    if (!id || !alloc || f.has("mapping") || f.has("storage_mapping") || f.has("additional_io_job") ||
        f.has("datasched_storage"))
      return std::nullopt;
    ExecuteJob d;
    d.job_id = *id;
    try {
      d.allocation = IntervalSet::from_string(*alloc);
    } catch (const InputError&) {
      return std::nullopt;
    }
    if (d.allocation.empty())
      return std::nullopt;
    return d;
  }
  if (type == "REJECT_JOB") {
    if (const std::string* id = f.string("job_id"))
      return RejectJob{*id};
    return std::nullopt;
  }
  if (type == "KILL_JOB") {
    if (const Strings* ids = f.strings("job_ids"))
      return KillJobs{ids->items};
    return std::nullopt;
  }
  if (type == "CALL_ME_LATER") {
    if (const Number* when = f.number("timestamp"))
      return CallMeLater{when->value};
    return std::nullopt;
  }
  if (type == "NOTIFY") {
    if (const std::string* what = f.string("type"))
      return NotifyDecision{*what};
    return std::nullopt;
  }
  if (type == "SET_JOB_METADATA") {
    const std::string *id = f.string("job_id"), *metadata = f.string("metadata");
    if (id && metadata)
      return SetJobMetadata{*id, *metadata};
    return std::nullopt;
  }
  if (type == "CHANGE_JOB_STATE") {
    const std::string *id = f.string("job_id"), *state = f.string("job_state");
    if (id && state)
      return ChangeJobState{*id, *state};
    return std::nullopt;
  }
  return std::nullopt;
}

} // namespace

std::optional<DecisionMessage> parse_common_decisions(const std::string& text)
{
  CommonDecisionsSax sax;
  if (!json::sax_parse(text, &sax) || !sax.complete() || !sax.now || !sax.events_seen)
    return std::nullopt;
  DecisionMessage msg;
  msg.now     = *sax.now;
  double last = -INFINITY;
  msg.decisions.reserve(sax.events.size());
  for (auto& e : sax.events) {
    if (!e.type || !e.timestamp || *e.timestamp < last || *e.timestamp > msg.now)
      return std::nullopt;
    last         = *e.timestamp;
    auto payload = common_payload(*e.type, Fields(e.data));
    if (!payload)
      return std::nullopt;
    msg.decisions.push_back(Decision{*e.timestamp, std::move(*e.type), std::move(*payload)});
  }
  return msg;
}

} // namespace datasched
