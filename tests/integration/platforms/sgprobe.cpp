// sgprobe: a tiny SimGrid program the platform tests compile on the fly, so that the
// generated XMLs are checked by SimGrid itself even before the datasched engine exists.
//
//   sgprobe PLATFORM.xml [--route SRC DST]... [--run ACTIVITIES.txt] [--cfg=...]
//
// Prints JSON shaped like `datasched-sim --inspect`: hosts (name, role, speed, cores,
// properties, disks), routes (links with bandwidth/latency/sharing policy) and, with
// --run, the completion date of each activity. ACTIVITIES.txt has one activity per line,
// all started at t=0:
//   ptask NAME HOST1,HOST2,... FLOPS1,FLOPS2,... BYTES(row-major n*n, comma-separated)
//   io NAME HOST DISK read|write BYTES
#include <simgrid/s4u.hpp>

#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace sg4 = simgrid::s4u;

static std::string esc(const std::string& s)
{
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out;
}

static std::vector<std::string> split(const std::string& s, char sep)
{
  std::vector<std::string> parts;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, sep))
    parts.push_back(item);
  return parts;
}

static const char* policy_name(sg4::Link::SharingPolicy p)
{
  switch (p) {
    case sg4::Link::SharingPolicy::SHARED:
      return "SHARED";
    case sg4::Link::SharingPolicy::FATPIPE:
      return "FATPIPE";
    case sg4::Link::SharingPolicy::SPLITDUPLEX:
      return "SPLITDUPLEX";
    default:
      return "OTHER";
  }
}

struct Activity {
  std::string kind, name, line;
};

static std::vector<std::pair<std::string, double>> finished;

int main(int argc, char** argv)
{
  sg4::Engine e(&argc, argv);
  if (argc < 2) {
    std::cerr << "usage: sgprobe PLATFORM [--route SRC DST]... [--run FILE]\n";
    return 1;
  }
  e.load_platform(argv[1]);
  e.seal_platform();
  std::vector<std::pair<std::string, std::string>> routes;
  std::string run_file;
  for (int i = 2; i < argc; i++) {
    std::string a = argv[i];
    if (a == "--route" && i + 2 < argc) {
      routes.emplace_back(argv[i + 1], argv[i + 2]);
      i += 2;
    } else if (a == "--run" && i + 1 < argc) {
      run_file = argv[++i];
    } else {
      std::cerr << "unknown argument " << a << "\n";
      return 1;
    }
  }

  std::cout << std::setprecision(17) << "{\"hosts\":[";
  bool first = true;
  for (auto* h : e.get_all_hosts()) {
    std::cout << (first ? "" : ",") << "{\"name\":\"" << esc(h->get_name()) << "\",\"speed\":" << h->get_speed()
              << ",\"cores\":" << h->get_core_count() << ",\"zone\":\"" << esc(h->get_englobing_zone()->get_name())
              << "\",\"properties\":{";
    first = false;
    bool fp = true;
    std::map<std::string, std::string> props(h->get_properties()->begin(), h->get_properties()->end());
    for (auto const& [k, v] : props) {
      std::cout << (fp ? "" : ",") << "\"" << esc(k) << "\":\"" << esc(v) << "\"";
      fp = false;
    }
    std::cout << "},\"disks\":[";
    bool fd = true;
    for (auto* d : h->get_disks()) {
      std::cout << (fd ? "" : ",") << "{\"name\":\"" << esc(d->get_name()) << "\",\"read_bandwidth\":" << d->get_read_bandwidth()
                << ",\"write_bandwidth\":" << d->get_write_bandwidth() << ",\"properties\":{";
      fd = false;
      bool fdp = true;
      std::map<std::string, std::string> dprops(d->get_properties()->begin(), d->get_properties()->end());
      for (auto const& [k, v] : dprops) {
        std::cout << (fdp ? "" : ",") << "\"" << esc(k) << "\":\"" << esc(v) << "\"";
        fdp = false;
      }
      std::cout << "}}";
    }
    std::cout << "]}";
  }
  std::cout << "],\"zones\":[";
  first = true;
  std::vector<sg4::NetZone*> todo{e.get_netzone_root()};
  while (not todo.empty()) {
    auto* z = todo.back();
    todo.pop_back();
    std::cout << (first ? "" : ",") << "{\"name\":\"" << esc(z->get_name()) << "\",\"properties\":{";
    first = false;
    bool fp = true;
    std::map<std::string, std::string> props(z->get_properties()->begin(), z->get_properties()->end());
    for (auto const& [k, v] : props) {
      std::cout << (fp ? "" : ",") << "\"" << esc(k) << "\":\"" << esc(v) << "\"";
      fp = false;
    }
    std::cout << "}}";
    for (auto* c : z->get_children())
      todo.push_back(c);
  }
  std::cout << "],\"routes\":[";
  first = true;
  for (auto const& [src, dst] : routes) {
    auto* s = sg4::Host::by_name(src);
    auto* d = sg4::Host::by_name(dst);
    std::vector<sg4::Link*> links;
    double lat = 0;
    s->route_to(d, links, &lat);
    std::cout << (first ? "" : ",") << "{\"src\":\"" << esc(src) << "\",\"dst\":\"" << esc(dst) << "\",\"latency\":" << lat
              << ",\"links\":[";
    first = false;
    bool fl = true;
    for (auto* l : links) {
      std::cout << (fl ? "" : ",") << "{\"name\":\"" << esc(l->get_name()) << "\",\"bandwidth\":" << l->get_bandwidth()
                << ",\"latency\":" << l->get_latency() << ",\"sharing_policy\":\"" << policy_name(l->get_sharing_policy())
                << "\"}";
      fl = false;
    }
    std::cout << "]}";
  }
  std::cout << "]";

  if (not run_file.empty()) {
    std::ifstream in(run_file);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);)
      if (not line.empty())
        lines.push_back(line);
    // One actor per activity: it starts the activity at t=0, waits for it and records
    // the completion date, so each date is exact whatever the others do.
    for (auto const& line : lines) {
      sg4::Actor::create("act", e.get_all_hosts().front(), [line]() {
        auto f = split(line, ' ');
        sg4::ActivityPtr act;
        if (f[0] == "ptask") {
          std::vector<sg4::Host*> hosts;
          for (auto const& n : split(f[2], ','))
            hosts.push_back(sg4::Host::by_name(n));
          std::vector<double> flops, bytes;
          for (auto const& v : split(f[3], ','))
            flops.push_back(std::stod(v));
          for (auto const& v : split(f[4], ','))
            bytes.push_back(std::stod(v));
          act = sg4::this_actor::exec_init(hosts, flops, bytes);
        } else if (f[0] == "io") {
          sg4::Disk* disk = nullptr;
          for (auto* d : sg4::Host::by_name(f[2])->get_disks())
            if (d->get_name() == f[3])
              disk = d;
          xbt_assert(disk != nullptr, "no disk %s on %s", f[3].c_str(), f[2].c_str());
          act = disk->io_init(std::stod(f[5]), f[4] == "read" ? sg4::Io::OpType::READ : sg4::Io::OpType::WRITE);
        } else {
          xbt_die("unknown activity kind %s", f[0].c_str());
        }
        act->start();
        act->wait();
        finished.emplace_back(f[1], sg4::Engine::get_clock());
      });
    }
  }
  if (not run_file.empty()) {
    e.run();
  }
  std::cout << ",\"finished\":[";
  first = true;
  for (auto const& [n, t] : finished) {
    std::cout << (first ? "" : ",") << "{\"name\":\"" << esc(n) << "\",\"time\":" << t << "}";
    first = false;
  }
  std::cout << "]}\n";
  return 0;
}
