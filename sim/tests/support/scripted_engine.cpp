#include "support/scripted_engine.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <sys/wait.h>
#include <unistd.h>

#include <simgrid/s4u/Engine.hpp>

#include "embed.hpp"

namespace datasched::testing {

namespace {

struct CallbackState {
  const Scenario* scenario;
  std::vector<nlohmann::json>* rounds;
  std::string reply;
};

extern "C" int scripted_decide(void* user, const char* request, size_t size, const char** reply, size_t* reply_size)
{
  auto* state        = static_cast<CallbackState*>(user);
  const auto message = nlohmann::json::parse(std::string(request, size));
  const int round    = static_cast<int>(state->rounds->size());
  state->rounds->push_back(message);
  if (round == state->scenario->fail_at_round)
    return 7;
  nlohmann::json events = state->scenario->script(message);
  if (events.is_null())
    events = nlohmann::json::array();
  state->reply = nlohmann::json{{"now", message.at("now")}, {"events", events}}.dump();
  *reply       = state->reply.data();
  *reply_size  = state->reply.size();
  return 0;
}

std::optional<std::string> read_file(const std::filesystem::path& path)
{
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return std::nullopt;
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void write_all(int fd, const std::string& text)
{
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n <= 0)
      _exit(3);
    done += static_cast<size_t>(n);
  }
}

/// Forks; the child runs `body` and writes what it returns into a pipe, then exits 0.
/// Returns the text, or sets `failure`.
std::string in_child(const std::function<std::string()>& body, std::string& failure)
{
  int fds[2];
  if (pipe(fds) != 0) {
    failure = "pipe() failed";
    return {};
  }
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    write_all(fds[1], body());
    close(fds[1]);
    _exit(0); // skip the exit handlers of gtest and SimGrid inherited from the parent
  }
  close(fds[1]);
  std::string text;
  char buffer[65536];
  for (ssize_t n; (n = read(fds[0], buffer, sizeof buffer)) > 0;)
    text.append(buffer, static_cast<size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    failure = WIFSIGNALED(status) ? "the child process died of signal " + std::to_string(WTERMSIG(status))
                                  : "the child process exited with status " + std::to_string(WEXITSTATUS(status));
  return text;
}

} // namespace

std::vector<nlohmann::json> ScriptedRun::events(const std::string& type) const
{
  std::vector<nlohmann::json> found;
  for (const auto& round : rounds)
    for (auto event : round.at("events"))
      if (event.at("type") == type) {
        event["now"] = round.at("now");
        found.push_back(event);
      }
  return found;
}

ScriptedRun run_scripted(const Scenario& scenario)
{
  ScriptedRun run;
  const std::string text = in_child(
      [&scenario]() {
        std::string pattern = (std::filesystem::temp_directory_path() / "datasched-scripted-XXXXXX").string();
        const std::filesystem::path dir(mkdtemp(pattern.data()));
        std::ofstream(dir / "platform.xml") << scenario.platform_xml;
        std::ofstream(dir / "workload.json") << scenario.workload.dump();
        std::vector<std::string> args = {
            "datasched-sim",       "-p", (dir / "platform.xml").string(), "-w", (dir / "workload.json").string(), "-e",
            (dir / "out").string()};
        args.insert(args.end(), scenario.engine_args.begin(), scenario.engine_args.end());
        std::vector<char*> argv;
        for (auto& a : args)
          argv.push_back(a.data());
        argv.push_back(nullptr);
        std::vector<nlohmann::json> rounds;
        CallbackState state{&scenario, &rounds, {}};
        const int code = datasched_sim_run(static_cast<int>(args.size()), argv.data(), scripted_decide, &state);
        nlohmann::json out{{"code", code}, {"error", datasched_sim_last_error()}, {"rounds", rounds}};
        if (auto jobs = read_file(dir / "out_jobs.csv"))
          out["jobs_csv"] = *jobs;
        if (auto states = read_file(dir / "out_machine_states.csv"))
          out["machine_states_csv"] = *states;
        std::filesystem::remove_all(dir);
        return out.dump();
      },
      run.child_failure);
  if (!run.child_failure.empty())
    return run;
  const auto out = nlohmann::json::parse(text);
  run.code       = out.at("code");
  run.error      = out.at("error");
  for (const auto& round : out.at("rounds"))
    run.rounds.push_back(round);
  if (out.contains("jobs_csv"))
    run.jobs_csv = out.at("jobs_csv").get<std::string>();
  if (out.contains("machine_states_csv"))
    run.machine_states_csv = out.at("machine_states_csv").get<std::string>();
  return run;
}

int run_in_child(const std::function<int()>& body)
{
  std::string failure;
  const std::string text = in_child([&body]() { return std::to_string(body()); }, failure);
  return failure.empty() ? std::atoi(text.c_str()) : -1;
}

nlohmann::json decision(double now, const std::string& type, nlohmann::json data)
{
  return {{"timestamp", now}, {"type", type}, {"data", std::move(data)}};
}

simgrid::s4u::NetZone* engine_with_full_zone(const char* zone, const char* config)
{
  int argc            = 2;
  char name[]         = "test";
  char quiet[]        = "--log=root.thres:critical";
  char* argv[]        = {name, quiet, nullptr};
  static auto* engine = new simgrid::s4u::Engine(&argc, argv);
  (void)engine;
  if (config != nullptr)
    simgrid::s4u::Engine::set_config(config);
  return simgrid::s4u::create_full_zone(zone);
}

} // namespace datasched::testing
