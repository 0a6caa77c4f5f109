#pragma once
// `<prefix>_links.csv` (opt-in: --link-load-window SECONDS): the bytes each platform link
// carried in each window of simulated time, measured from SimGrid rather than estimated.
//
// How: SimGrid's solver fixes every activity's rate at a date t and keeps it until the next
// date t + delta; Engine::on_time_advance(delta) fires once the clock reached t + delta and
// the models updated their actions, before any actor runs or the solver runs again. At that
// moment each link's get_usage() is still the sum, over the activities crossing it, of the
// bytes per second they were given at t (for a ptask_L07 parallel task: its bytes on that
// link times its rate; an activity that finished at t + delta is still counted, an activity
// still paying its latency counts 0, as it moves nothing). So usage x delta is exactly the
// bytes the link carried over (t, t + delta], split proportionally when the step crosses a
// window boundary. Checked against closed forms in sim/tests/test_links_csv.cpp.
// A FATPIPE link's usage is SimGrid's: the largest single flow, not the sum (SimGrid 3.32 has
// no public way to the sum: docs/outputs.md, "Measured link load").
// Every run that measures (scheduling runs and the three experiment modes) starts one
// LinkLoadCsv once the platform is loaded and writes it to link_load_file(prefix) at the end.
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace simgrid::s4u {
class Link;
}

namespace datasched {

class LinkLoadCsv {
public:
  LinkLoadCsv()                              = default;
  LinkLoadCsv(const LinkLoadCsv&)            = delete;
  LinkLoadCsv& operator=(const LinkLoadCsv&) = delete;

  /// Bytes and busy time of one link in one window.
  struct Load {
    double bytes = 0;
    double busy  = 0; ///< seconds with a non-zero usage
  };

  /// Measures every link of the loaded platform in windows of `window` seconds from the
  /// current date on; connects to Engine::on_time_advance (SimGrid cannot disconnect a
  /// slot: the slot holds a weak reference, so a destroyed measure is never called).
  /// A window <= 0 (--link-load-window's "off") measures nothing.
  void start(double window);
  bool enabled() const { return window_ > 0; }
  /// The `delta` seconds that just elapsed, up to the current clock (on_time_advance).
  void advance(double delta);
  /// Link name -> its load summed over every window (for tests and summaries).
  std::map<std::string, Load> totals() const;
  /// Writes the file atomically: one row per window and link that carried bytes.
  void write(const std::string& path) const;
  /// At the end of a run: writes link_load_file(prefix) if the run measured.
  void write_if_measured(const std::string& prefix) const;
  static std::string header();

private:
  void add(size_t link, double from, double to, double usage);

  std::shared_ptr<LinkLoadCsv*> self_; ///< what the time-advance slot refers to
  double window_ = 0;
  std::vector<simgrid::s4u::Link*> links_; ///< sorted by name (row order)
  std::vector<std::string> names_;
  std::map<std::pair<long long, size_t>, Load> loads_; ///< (window index, link index) -> load
};

/// `<prefix>_links.csv`, the file every run writes the measure to (and removes first).
std::string link_load_file(const std::string& prefix);

} // namespace datasched
