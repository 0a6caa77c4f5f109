#include "model/workload.hpp"

#include "common/batsim_number.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <set>
#include <sstream>

#include "common/fatal.hpp"
#include "common/json_file.hpp"
#include "model/batsim_numbers.hpp"

namespace datasched {

namespace {

std::string job_id_to_string(const nlohmann::json& id, const std::string& where)
{
  if (id.is_string())
    return id.get<std::string>();
  if (id.is_number_integer())
    return std::to_string(id.get<long long>());
  if (id.is_number_unsigned())
    return std::to_string(id.get<unsigned long long>());
  throw InputError(where + ": job id " + id.dump() + " must be a string or an integer");
}

} // namespace

Workload& Workloads::load_file(const std::string& name, const std::string& path)
{
  // Batsim reads workloads with rapidjson: its decimal conversion, not a correctly rounded one.
  const nlohmann::json doc = read_batsim_json_file(path);
  const std::string where  = "workload '" + path + "'";
  if (!doc.is_object())
    throw InputError(where + ": the top level must be a JSON object");
  if (workloads_.count(name))
    throw InputError(where + ": workload name '" + name + "' is already used");

  auto owned       = std::make_unique<Workload>();
  Workload& w      = *owned;
  w.name           = name;
  w.file           = path;
  w.is_static      = true;
  workloads_[name] = std::move(owned);

  if (!doc.contains("profiles") || !doc.at("profiles").is_object())
    throw InputError(where + ": missing object 'profiles'");
  for (const auto& [pname, pobj] : doc.at("profiles").items())
    add_profile(w, pname, pobj, where);
  check_profile_references(w, where);

  if (!doc.contains("jobs") || !doc.at("jobs").is_array())
    throw InputError(where + ": missing array 'jobs'");
  for (const auto& jobj : doc.at("jobs"))
    w.static_jobs.push_back(&add_job(w, jobj, where));
  if (doc.contains("datasched_data"))
    w.initial_items = parse_initial_items(doc.at("datasched_data"), where);
  return w;
}

std::vector<InitialItem> parse_initial_items(const nlohmann::json& data, const std::string& where)
{
  if (!data.is_array())
    throw InputError(where + ": 'datasched_data' must be an array of {\"name\", \"bytes\", \"producer\"} objects");
  std::vector<InitialItem> out;
  for (size_t i = 0; i < data.size(); ++i) {
    const auto& entry    = data[i];
    const std::string at = where + ": datasched_data[" + std::to_string(i) + "]";
    if (!entry.is_object() || !entry.contains("name") || !entry.at("name").is_string() || !entry.contains("bytes"))
      throw InputError(at + ": needs a string 'name' and a number 'bytes' >= 0");
    const double bytes  = checked_workload_number(entry.at("bytes"), at, "bytes", "bytes"); // staged and moved later
    const auto producer = entry.value("producer", nlohmann::json());
    if (!producer.is_null() && !producer.is_number_integer())
      throw InputError(at + ": 'producer' must be a job id (integer) or null");
    if (producer.is_null())
      out.push_back(InitialItem{entry.at("name").get<std::string>(), bytes});
  }
  return out;
}

Workload& Workloads::get_or_create_dynamic(const std::string& name)
{
  if (auto* w = find_workload(name))
    return *w;
  auto owned       = std::make_unique<Workload>();
  owned->name      = name;
  owned->is_static = false;
  Workload& ref    = *owned;
  workloads_[name] = std::move(owned);
  return ref;
}

Workload* Workloads::find_workload(const std::string& name)
{
  auto it = workloads_.find(name);
  return it == workloads_.end() ? nullptr : it->second.get();
}

Profile& Workloads::add_profile(Workload& workload, const std::string& name, const nlohmann::json& object,
                                const std::string& where)
{
  if (workload.profiles.count(name))
    throw InputError(where + ": profile '" + name + "' of workload '" + workload.name + "' already exists");
  Profile p = Profile::from_json(name, object, where);
  return workload.profiles.emplace(name, std::move(p)).first->second;
}

void Workloads::check_profile_references(const Workload& workload, const std::string& where) const
{
  // Depth-first search over composed profiles: unknown names and cycles are errors.
  std::set<std::string> done, active;
  std::function<void(const Profile&)> visit = [&](const Profile& p) {
    if (done.count(p.name))
      return;
    if (active.count(p.name))
      throw InputError(where + ": composed profile '" + p.name + "' contains itself (cycle)");
    active.insert(p.name);
    for (const auto& sub : p.sequence) {
      auto it = workload.profiles.find(sub);
      if (it == workload.profiles.end())
        throw InputError(where + ": composed profile '" + p.name + "' references unknown profile '" + sub + "'");
      if (it->second.type == ProfileType::Phases)
        throw InputError(where + ": composed profile '" + p.name + "' references the datasched_phases profile '" + sub +
                         "' (a phase profile is a whole application: give it to the job directly)");
      visit(it->second);
    }
    active.erase(p.name);
    done.insert(p.name);
  };
  for (const auto& [name, profile] : workload.profiles)
    visit(profile);
}

RunCost Workloads::largest_profile(const Workload& workload) const
{
  // Steps counted as doubles: 2^31 - 1 repeats nested a few deep overflow any integer. Only
  // composed profiles are remembered (a trace of a million jobs has a million one-step profiles).
  std::map<std::string, double> steps;
  std::function<double(const Profile&)> count = [&](const Profile& p) -> double {
    if (p.type != ProfileType::Composed)
      return 1.0;
    if (auto it = steps.find(p.name); it != steps.end())
      return it->second;
    double inner = 0.0;
    for (const auto& sub : p.sequence)
      inner += count(workload.profiles.at(sub)); // references checked: no cycle, no unknown name
    return steps[p.name] = p.repeat * inner;
  };
  RunCost largest;
  for (const auto& [name, profile] : workload.profiles) {
    if (profile.type != ProfileType::Composed)
      continue;
    const double n = count(profile);
    if (n > largest.events)
      largest = {n, "profile steps (composed profile '" + name + "': " + std::to_string(profile.repeat) +
                        " repeats of its sequence)"};
  }
  return largest;
}

Job& Workloads::add_job(Workload& workload, const nlohmann::json& object, const std::string& where)
{
  if (!object.is_object())
    throw InputError(where + ": every job must be a JSON object, got " + object.dump());
  if (!object.contains("id"))
    throw InputError(where + ": a job has no 'id' field: " + object.dump());
  std::string number = job_id_to_string(object.at("id"), where);
  std::string full_id;
  if (auto bang = number.find('!'); bang != std::string::npos) {
    if (number.substr(0, bang) != workload.name)
      throw InputError(where + ": job '" + number + "' does not belong to workload '" + workload.name + "'");
    full_id = number;
    number  = number.substr(bang + 1);
  } else {
    full_id = workload.name + "!" + number;
  }
  const std::string ctx = where + ": job '" + full_id + "'";
  if (jobs_.count(full_id))
    throw InputError(ctx + ": duplicate job id");

  auto job      = std::make_unique<Job>();
  job->id       = full_id;
  job->number   = number;
  job->workload = &workload;

  auto number_field = [&](const char* field) -> double {
    if (!object.contains(field))
      throw InputError(ctx + ": missing field '" + field + "'");
    const auto& v = object.at(field);
    if (!v.is_number() || !std::isfinite(v.get<double>()))
      throw InputError(ctx + ": field '" + field + "' must be a number");
    return v.get<double>();
  };

  job->submission_time = number_field("subtime");
  // Any date from 0 to kMaxTime, as Batsim 4.2.1 runs (its test_long_workload.json goes to
  // 1e17 s; beyond 1e23 it aborts writing the date in JOB_SUBMITTED).
  if (job->submission_time < 0 || job->submission_time > kMaxTime)
    throw InputError(ctx + ": 'subtime' must be >= 0 and <= " + kMaxTimeText +
                     " s (Batsim 4.2.1 aborts writing a larger number in its protocol)");
  if (object.contains("walltime")) {
    // -1 (no limit) or a duration in (0, kMaxTime]: Batsim 4.2.1 reads any finite walltime
    // but aborts writing one above 1e23 in the job's JOB_SUBMITTED (checked on the real
    // build: 1e23 runs, 2e23 and 1e308 abort).
    job->walltime = number_field("walltime");
    if (job->walltime != -1 && job->walltime <= 0)
      throw InputError(ctx + ": 'walltime' must be > 0 (or -1 for no limit)");
    if (job->walltime > kMaxTime)
      throw InputError(ctx + ": 'walltime' must be <= " + kMaxTimeText +
                       " s (Batsim 4.2.1 aborts writing a larger number in its protocol)");
  }
  if (!object.contains("res") || !object.at("res").is_number_integer() || object.at("res").get<long long>() < 1 ||
      object.at("res").get<long long>() > std::numeric_limits<int>::max())
    throw InputError(ctx + ": field 'res' must be a positive integer (at most " +
                     std::to_string(std::numeric_limits<int>::max()) + ")");
  job->requested_resources = object.at("res").get<int>(); // checked: 1 to INT_MAX above
  if (!object.contains("profile") || !object.at("profile").is_string())
    throw InputError(ctx + ": field 'profile' must be a profile name (string)");
  job->profile = object.at("profile").get<std::string>();
  auto profile = workload.profiles.find(job->profile);
  if (profile == workload.profiles.end())
    throw InputError(ctx + ": unknown profile '" + job->profile + "'");
  if (profile->second.type == ProfileType::Phases && profile->second.phases->res != job->requested_resources)
    throw InputError(ctx + ": requests " + std::to_string(job->requested_resources) + " hosts but its " +
                     "datasched_phases profile '" + job->profile +
                     "' is sized for res = " + std::to_string(profile->second.phases->res));

  nlohmann::json description = object;
  description["id"]          = full_id;
  job->description           = description.dump(); // serialised once: it is sent as is on submission

  Job& ref       = *job;
  jobs_[full_id] = std::move(job);
  return ref;
}

Job* Workloads::find_job(const std::string& full_id)
{
  auto it = jobs_.find(full_id);
  return it == jobs_.end() ? nullptr : it->second.get();
}

std::vector<Job*> Workloads::running_jobs() const
{
  std::vector<Job*> running;
  for (const auto& [id, job] : jobs_)
    if (job->state == JobState::Running)
      running.push_back(job.get());
  std::sort(running.begin(), running.end(), [](const Job* a, const Job* b) { return a->id < b->id; });
  return running;
}

const Profile& Workloads::profile_of(const Job& job) const
{
  return job.workload->profiles.at(job.profile);
}

} // namespace datasched
