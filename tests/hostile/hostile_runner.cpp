// Runs one case of the hostile-input corpus (tests/hostile/cases.manifest):
//   hostile_runner MANIFEST CASE
// Every command of the case runs as a child in its own process group, with stdin
// on /dev/null, a clean environment, a hard wall-clock deadline (the group is
// killed on expiry: a failure) and its rusage measured with wait4 (max RSS, CPU
// time). Afterwards the case's canary folder must be byte for byte as it was and
// the sentinel `touch` on PATH must never have been called. Grammar and cases:
// tests/hostile/README.md.
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/run_command.h"
#include "tests/support/sanitized.h"
#include "tests/support/test_support.h"

namespace {

using hwaccel::testing::bin;
using hwaccel::testing::make_temp_dir;
using hwaccel::testing::slurp;
using hwaccel::testing::source_path;

constexpr int kSkip = 77;  // ctest SKIP_RETURN_CODE: a tool the case needs is missing

struct Limits {
  double wall_s = 30;
  double cpu_s = 60;
  long rss_mib = 1536;
};

// The bounds are for the release build. Under AddressSanitizer (ci/sanitize builds
// this runner and the tools alike, Debug) the same work takes several times the CPU
// and its shadow memory and quarantine add to the RSS: the bounds grow, the
// assertions stay (a hang or a blow-up is still far past them).
constexpr double kTimeFactor = hwaccel::testing::kSanitized ? 6 : 1;
constexpr long kMemoryFactor = hwaccel::testing::kSanitized ? 3 : 1;

struct Run {
  std::string exit_class = "error";  // ok | error | sane | N[,N...]
  std::vector<std::string> err_has, err_lacks, out_has, out_lacks;
  std::vector<std::string> err_re;
  std::string cwd;
  std::vector<std::string> env;  // NAME=VALUE added or replacing the default
  Limits limits;
  bool limits_set_wall = false, limits_set_cpu = false, limits_set_rss = false;
  std::vector<std::string> argv;
  int line = 0;
};

struct Case {
  std::string name;
  std::string item;
  Limits limits;
  std::vector<std::pair<std::string, std::string>> files;  // dest (under $WORK), source
  std::vector<std::string> setup, background, checks;
  std::vector<std::string> env;
  std::vector<Run> runs;
  std::vector<std::string> needs;  // programs that must be on PATH, else skip
};

int failures = 0;

void fail(const std::string& what) {
  ++failures;
  std::printf("FAIL: %s\n", what.c_str());
}

// Splits a manifest line into words like a POSIX shell does, without expansion:
// blanks separate, '...' is literal, "..." takes \" and \\, backslash escapes.
std::vector<std::string> split_words(const std::string& s) {
  std::vector<std::string> words;
  std::string cur;
  bool have = false;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == ' ' || c == '\t') {
      if (have) words.push_back(cur), cur.clear(), have = false;
    } else if (c == '\'') {
      have = true;
      for (++i; i < s.size() && s[i] != '\''; ++i) cur += s[i];
    } else if (c == '"') {
      have = true;
      for (++i; i < s.size() && s[i] != '"'; ++i) {
        if (s[i] == '\\' && i + 1 < s.size() && (s[i + 1] == '"' || s[i + 1] == '\\')) ++i;
        cur += s[i];
      }
    } else if (c == '\\' && i + 1 < s.size()) {
      have = true;
      cur += s[++i];
    } else {
      have = true;
      cur += c;
    }
  }
  if (have) words.push_back(cur);
  return words;
}

std::map<std::string, std::string> vars;

// $NAME and ${NAME} for the runner's own variables; everything else is left alone.
std::string substitute(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '$') {
      bool braced = i + 1 < text.size() && text[i + 1] == '{';
      size_t start = i + (braced ? 2 : 1), end = start;
      while (end < text.size() &&
             (std::isupper(static_cast<unsigned char>(text[end])) || text[end] == '_' ||
              std::isdigit(static_cast<unsigned char>(text[end]))))
        ++end;
      auto it = vars.find(text.substr(start, end - start));
      if (it != vars.end() && (!braced || (end < text.size() && text[end] == '}'))) {
        out += it->second;
        i = end - (braced ? 0 : 1);
        continue;
      }
    }
    out += text[i];
  }
  return out;
}

bool parse_limit(const std::string& word, Limits& l, bool* set_wall = nullptr,
                 bool* set_cpu = nullptr, bool* set_rss = nullptr) {
  auto eq = word.find('=');
  if (eq == std::string::npos) return false;
  std::string key = word.substr(0, eq), value = word.substr(eq + 1);
  if (key == "wall") {
    l.wall_s = std::stod(value);
    if (set_wall) *set_wall = true;
  } else if (key == "cpu") {
    l.cpu_s = std::stod(value);
    if (set_cpu) *set_cpu = true;
  } else if (key == "rss") {
    l.rss_mib = std::stol(value);
    if (set_rss) *set_rss = true;
  } else {
    return false;
  }
  return true;
}

// The entry points that read a snapshot, for `snapshot CLASS -- FILE`.
std::vector<std::pair<std::string, std::vector<std::string>>> snapshot_entry_points(
    const std::string& file, int n) {
  // $WORK is substituted when the run starts (each case has its own).
  std::string hwaccel = bin("hwaccel"), hwsim = bin("hwsim"), w = "$WORK";
  std::string tag = std::to_string(n);
  return {
      {"replay", {hwsim, "replay", file}},
      {"detect", {hwaccel, "detect", "--host", file, "--json"}},
      {"devices", {hwaccel, "devices", "--host", file}},
      {"select", {hwaccel, "select", "--host", file}},
      {"plan", {hwaccel, "plan", "--model", "Llama-3-8B", "--host", file}},
      {"export", {hwaccel, "export", "slurm", "--host", file}},
      {"export-o",
       {hwaccel, "export", "prometheus", "--host", file, "-o", w + "/out/ep" + tag + ".prom"}},
      {"diff", {hwsim, "diff", file, source_path("fixtures/hosts/cpu-only.yaml")}},
      {"check",
       {"/bin/sh", "-c",
        "d=" + w + "/check" + tag + " && mkdir -p $d && cp \"$0\" $d/hostile.yaml && exec " +
            hwsim + " check --progress never $d",
        file}},
      {"mutate",
       {hwsim, "mutate", file, "--fault", "empty:/proc/meminfo", "-o",
        w + "/out/mutated" + tag + ".yaml"}},
      {"materialize", {hwsim, "materialize", file, w + "/mat" + tag}},
      {"run", {hwsim, "run", file, "--", hwaccel, "detect"}},
  };
}

std::optional<std::vector<Case>> read_manifest(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::vector<Case> cases;
  std::string line;
  int lineno = 0;
  Case* c = nullptr;
  int snapshot_blocks = 0;
  while (std::getline(in, line)) {
    ++lineno;
    size_t first = line.find_first_not_of(" \t");
    if (first == std::string::npos || line[first] == '#') continue;
    line = line.substr(first);
    size_t sp = line.find(' ');
    std::string key = line.substr(0, sp), rest = sp == std::string::npos ? "" : line.substr(sp + 1);
    auto where = path + ":" + std::to_string(lineno) + ": ";
    if (key == "case") {
      cases.emplace_back();
      c = &cases.back();
      c->name = rest;
      continue;
    }
    if (!c) {
      std::fprintf(stderr, "%sexpected `case NAME` first\n", where.c_str());
      return std::nullopt;
    }
    if (key == "end") {
      c = nullptr;
    } else if (key == "item") {
      c->item = rest;
    } else if (key == "limits") {
      for (auto& w : split_words(rest)) parse_limit(w, c->limits);
    } else if (key == "file") {
      auto w = split_words(rest);
      if (w.size() != 2) {
        std::fprintf(stderr, "%sfile DEST SOURCE\n", where.c_str());
        return std::nullopt;
      }
      c->files.emplace_back(w[0], w[1]);
    } else if (key == "setup") {
      c->setup.push_back(rest);
    } else if (key == "background") {
      c->background.push_back(rest);
    } else if (key == "check") {
      c->checks.push_back(rest);
    } else if (key == "env") {
      c->env.push_back(rest);
    } else if (key == "needs") {
      for (auto& w : split_words(rest)) c->needs.push_back(w);
    } else if (key == "run" || key == "snapshot") {
      auto words = split_words(rest);
      Run r;
      r.line = lineno;
      size_t i = 0;
      std::vector<std::string> only, skip;
      if (words.empty()) {
        std::fprintf(stderr, "%s%s CLASS [OPTIONS] -- ARGV\n", where.c_str(), key.c_str());
        return std::nullopt;
      }
      r.exit_class = words[i++];
      for (; i < words.size() && words[i] != "--"; ++i) {
        const std::string& w = words[i];
        auto starts = [&](const char* p) { return w.rfind(p, 0) == 0; };
        if (starts("err+="))
          r.err_has.push_back(w.substr(5));
        else if (starts("err-="))
          r.err_lacks.push_back(w.substr(5));
        else if (starts("err~="))
          r.err_re.push_back(w.substr(5));
        else if (starts("out+="))
          r.out_has.push_back(w.substr(5));
        else if (starts("out-="))
          r.out_lacks.push_back(w.substr(5));
        else if (starts("cwd="))
          r.cwd = w.substr(4);
        else if (starts("env="))
          r.env.push_back(w.substr(4));
        else if (starts("only="))
          only.push_back(w.substr(5));
        else if (starts("skip="))
          skip.push_back(w.substr(5));
        else if (!parse_limit(w, r.limits, &r.limits_set_wall, &r.limits_set_cpu,
                              &r.limits_set_rss)) {
          std::fprintf(stderr, "%sunknown option %s\n", where.c_str(), w.c_str());
          return std::nullopt;
        }
      }
      if (i >= words.size()) {
        std::fprintf(stderr, "%sexpected -- before the command\n", where.c_str());
        return std::nullopt;
      }
      r.argv.assign(words.begin() + i + 1, words.end());
      if (key == "run") {
        c->runs.push_back(r);
        continue;
      }
      // `snapshot`: one run per entry point that reads the snapshot FILE.
      auto listed = [](const std::vector<std::string>& lists, const std::string& name) {
        for (auto& l : lists) {
          std::stringstream ss(l);
          std::string n;
          while (std::getline(ss, n, ','))
            if (n == name) return true;
        }
        return false;
      };
      for (auto& [name, argv] : snapshot_entry_points(r.argv.at(0), ++snapshot_blocks)) {
        if (!only.empty() && !listed(only, name)) continue;
        if (listed(skip, name)) continue;
        Run e = r;
        e.argv = argv;
        // hwsim check reports a hostile snapshot as a failed host (10) or refuses it (4).
        if (name == "check" && r.exit_class == "error") e.exit_class = "4,10";
        if (name == "check" && r.exit_class == "sane") e.exit_class = "sane";
        if (name == "check") {
          // it names the copy, hostile.yaml, not the original
          e.err_has.clear();
          e.err_re.clear();
        }
        c->runs.push_back(e);
      }
    } else {
      std::fprintf(stderr, "%sunknown key %s\n", where.c_str(), key.c_str());
      return std::nullopt;
    }
  }
  return cases;
}

// What a folder holds, recursively: path, type, mode, owner, size, mtime, the
// bytes of regular files and the targets of links. Any change is a write.
void describe(const std::string& root, const std::string& rel, std::string& out) {
  std::string path = root + rel;
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    out += rel + " lstat " + std::strerror(errno) + "\n";
    return;
  }
  char line[512];
  std::snprintf(line, sizeof line, " mode=%o uid=%u gid=%u size=%lld mtime=%lld.%09ld ino=%llu",
                st.st_mode, st.st_uid, st.st_gid, static_cast<long long>(st.st_size),
                static_cast<long long>(st.st_mtim.tv_sec), st.st_mtim.tv_nsec,
                static_cast<unsigned long long>(st.st_ino));
  out += (rel.empty() ? "." : rel) + line;
  if (S_ISLNK(st.st_mode)) {
    char target[4096];
    ssize_t n = ::readlink(path.c_str(), target, sizeof target);
    out += " -> " + std::string(target, n > 0 ? n : 0);
  } else if (S_ISREG(st.st_mode)) {
    int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    std::string bytes;
    char buf[65536];
    ssize_t n;
    while (fd >= 0 && (n = ::read(fd, buf, sizeof buf)) > 0) bytes.append(buf, n);
    if (fd >= 0) ::close(fd);
    out += " bytes=" + std::to_string(std::hash<std::string>{}(bytes));
  }
  out += "\n";
  if (S_ISDIR(st.st_mode)) {
    std::vector<std::string> names;
    if (DIR* d = ::opendir(path.c_str())) {
      while (auto* e = ::readdir(d))
        if (std::strcmp(e->d_name, ".") && std::strcmp(e->d_name, "..")) names.push_back(e->d_name);
      ::closedir(d);
    }
    std::sort(names.begin(), names.end());
    for (auto& n : names) describe(root, rel + "/" + n, out);
  }
}

std::string describe(const std::string& root) {
  std::string out;
  describe(root, "", out);
  return out;
}

struct Outcome {
  bool exited = false;
  int code = -1;
  int signal = 0;
  bool timed_out = false;
  double wall_s = 0, cpu_s = 0;
  long rss_kib = 0;
  std::string out, err;
};

std::vector<std::string> base_env;

std::vector<std::string> make_env(const std::vector<std::string>& extra) {
  std::vector<std::string> env = base_env;
  for (auto& e : extra) {
    std::string kv = substitute(e);
    std::string name = kv.substr(0, kv.find('='));
    bool replaced = false;
    for (auto& x : env)
      if (x.compare(0, name.size() + 1, name + "=") == 0) x = kv, replaced = true;
    if (!replaced) env.push_back(kv);
  }
  return env;
}

pid_t spawn(const std::vector<std::string>& argv, const std::vector<std::string>& env,
            const std::string& cwd, const std::string& out_path, const std::string& err_path) {
  std::vector<char*> cargv, cenv;
  for (auto& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  for (auto& e : env) cenv.push_back(const_cast<char*>(e.c_str()));
  cenv.push_back(nullptr);
  pid_t pid = ::fork();
  if (pid == 0) {
    ::setpgid(0, 0);
    int in = ::open("/dev/null", O_RDONLY);
    int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (in < 0 || out < 0 || err < 0 || ::dup2(in, 0) < 0 || ::dup2(out, 1) < 0 ||
        ::dup2(err, 2) < 0 || ::chdir(cwd.c_str()) != 0)
      ::_exit(125);
    for (int fd = 3; fd < 1024; ++fd) ::close(fd);
    ::execve(cargv[0], cargv.data(), cenv.data());
    std::fprintf(stderr, "hostile_runner: cannot execute %s: %s\n", cargv[0], std::strerror(errno));
    ::_exit(127);
  }
  if (pid > 0) ::setpgid(pid, pid);
  return pid;
}

Outcome run_child(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                  const std::string& cwd, double deadline_s, const std::string& log_stem) {
  Outcome o;
  std::string out_path = log_stem + ".out", err_path = log_stem + ".err";
  auto start = std::chrono::steady_clock::now();
  pid_t pid = spawn(argv, env, cwd, out_path, err_path);
  if (pid < 0) {
    o.err = "fork failed";
    return o;
  }
  int status = 0;
  struct rusage ru {};
  for (;;) {
    pid_t got = ::wait4(pid, &status, WNOHANG, &ru);
    if (got == pid) break;
    double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (elapsed > deadline_s) {
      o.timed_out = true;
      ::kill(-pid, SIGKILL);
      ::wait4(pid, &status, 0, &ru);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ::kill(-pid, SIGKILL);  // what the command left running in its group (a hung shim)
  o.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  o.cpu_s = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec +
            ru.ru_stime.tv_usec / 1e6;
  o.rss_kib = ru.ru_maxrss;
  o.exited = WIFEXITED(status);
  o.code = o.exited ? WEXITSTATUS(status) : -1;
  o.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  o.out = slurp(out_path).value_or("");
  o.err = slurp(err_path).value_or("");
  return o;
}

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string printable(const std::vector<std::string>& argv) {
  std::string s;
  for (auto& a : argv) {
    std::string shown = a.size() > 200 ? a.substr(0, 200) + "..." : a;
    s += (s.empty() ? "" : " ") + shell_quote(shown);
  }
  return s;
}

std::string head(const std::string& text, size_t n = 1500) {
  return text.size() > n
             ? text.substr(0, n) + "\n[... " + std::to_string(text.size() - n) + " more bytes]"
             : text;
}

bool class_accepts(const std::string& cls, const Outcome& o) {
  if (!o.exited) return false;
  if (cls == "ok") return o.code == 0;
  if (cls == "error") return o.code >= 2 && o.code <= 125;
  if (cls == "sane") return o.code >= 0 && o.code <= 127;
  std::stringstream ss(cls);
  std::string n;
  while (std::getline(ss, n, ','))
    if (std::to_string(o.code) == n) return true;
  return false;
}

// A shell command of the case itself (setup, check): trusted test text.
int shell(const std::string& command, const std::vector<std::string>& env, double deadline_s,
          const std::string& log_stem, std::string* err = nullptr) {
  Outcome o = run_child({"/bin/sh", "-c", command}, env, vars["WORK"], deadline_s, log_stem);
  if (err) *err = o.err + o.out;
  if (o.timed_out) return -2;
  return o.exited ? o.code : -1;
}

bool on_path(const std::string& program) {
  for (const char* dir : {"/usr/local/bin", "/usr/bin", "/bin"})
    if (::access((std::string(dir) + "/" + program).c_str(), X_OK) == 0) return true;
  return false;
}

int run_case(const Case& c) {
  for (auto& n : c.needs)
    if (!on_path(n)) {
      std::printf("SKIP %s: needs %s\n", c.name.c_str(), n.c_str());
      return kSkip;
    }
  std::string work = make_temp_dir();
  vars["WORK"] = work;
  vars["CANARY"] = work + "/canary";
  vars["SRC"] = HWACCEL_SOURCE_DIR;
  vars["BIN"] = HWACCEL_BIN_DIR;
  vars["HWACCEL"] = bin("hwaccel");
  vars["HWSIM"] = bin("hwsim");
  vars["FIXTURES"] = source_path("fixtures/hosts");
  vars["INPUTS"] = source_path("tests/hostile/inputs");
  // What a case whose point is its input's size divides it by: 10 under ASan
  // (the same paths checked for memory errors), 1 in the release build, where
  // the time bound is the point.
  vars["SCALE"] = std::to_string(hwaccel::testing::kSanitizedScale);
  for (const char* d : {"/canary", "/canary/sub", "/logs", "/out", "/home", "/cache", "/tmp",
                        "/sentinel", "/root", "/config"})
    ::mkdir((work + d).c_str(), 0755);
  ::chmod((work + "/cache").c_str(), 0700);
  auto write = [](const std::string& path, const std::string& text, mode_t mode) {
    std::ofstream(path, std::ios::binary) << text;
    ::chmod(path.c_str(), mode);
  };
  write(work + "/canary/precious", "the user's own file\n", 0644);
  write(work + "/canary/sub/notes.txt", "more of the user's data\n", 0600);
  // A sentinel `touch`: the corpus plants `touch $CANARY/...` commands; whichever
  // `touch` runs, the canary or this log shows it.
  write(work + "/sentinel/touch", "#!/bin/sh\necho \"touch $*\" >>" + work + "/sentinel.log\n",
        0755);

  base_env = {"PATH=" + work + "/sentinel:/usr/bin:/bin",
              "HOME=" + work + "/home",
              "XDG_CACHE_HOME=" + work + "/cache",
              "XDG_CONFIG_HOME=" + work + "/config",
              "TMPDIR=" + work + "/tmp",
              "LC_ALL=C",
              "NO_COLOR=1"};
  for (auto& [k, v] : vars) base_env.push_back("HOSTILE_" + k + "=" + v);
  for (auto& [k, v] : vars) base_env.push_back(k + "=" + v);
  base_env = make_env(c.env);

  std::printf("case %s (issue 18 item %s) in %s\n", c.name.c_str(), c.item.c_str(), work.c_str());
  for (auto& [dest, source] : c.files) {
    auto text = slurp(source_path("tests/hostile/inputs/" + source));
    if (!text) {
      fail("cannot read input " + source);
      return 1;
    }
    write(work + "/" + dest, substitute(*text), 0644);
  }
  int step = 0;
  for (auto& s : c.setup) {
    std::string err;
    int rc = shell(s, base_env, 120, work + "/logs/setup" + std::to_string(++step), &err);
    if (rc == kSkip) {
      std::printf("SKIP %s: setup says so: %s\n", c.name.c_str(), err.c_str());
      return kSkip;
    }
    if (rc != 0) {
      fail("setup failed (" + std::to_string(rc) + "): " + s + "\n" + head(err));
      return 1;
    }
  }
  std::string canary_before = describe(work + "/canary");

  std::vector<pid_t> background;
  for (auto& b : c.background) {
    std::vector<std::string> argv = {"/bin/sh", "-c", b};
    pid_t pid = spawn(argv, base_env, work, work + "/logs/bg.out", work + "/logs/bg.err");
    background.push_back(pid);
  }

  int n = 0;
  for (const Run& r : c.runs) {
    ++n;
    Limits l = c.limits;
    if (r.limits_set_wall) l.wall_s = r.limits.wall_s;
    if (r.limits_set_cpu) l.cpu_s = r.limits.cpu_s;
    if (r.limits_set_rss) l.rss_mib = r.limits.rss_mib;
    l.wall_s *= kTimeFactor;
    l.cpu_s *= kTimeFactor;
    l.rss_mib *= kMemoryFactor;
    std::vector<std::string> argv;
    for (auto& a : r.argv) argv.push_back(substitute(a));
    if (!argv.empty() && argv[0].find('/') == std::string::npos) {
      if (argv[0] == "hwaccel" || argv[0] == "hwsim")
        argv[0] = bin(argv[0]);
      else if (argv[0] == "sh")
        argv[0] = "/bin/sh";
    }
    std::string cwd = r.cwd.empty() ? work : substitute(r.cwd);
    Outcome o =
        run_child(argv, make_env(r.env), cwd, l.wall_s, work + "/logs/run" + std::to_string(n));
    std::string tag = c.name + " run " + std::to_string(n) + " (manifest line " +
                      std::to_string(r.line) + "): " + printable(argv);
    std::printf("  [%d] exit=%s wall=%.2fs cpu=%.2fs rss=%ldMiB  %s\n", n,
                o.timed_out ? "TIMEOUT"
                : o.exited  ? std::to_string(o.code).c_str()
                            : ("signal " + std::to_string(o.signal)).c_str(),
                o.wall_s, o.cpu_s, o.rss_kib / 1024, printable(argv).c_str());
    int before = failures;
    if (o.timed_out)
      fail(tag + "\n  ran past its deadline of " + std::to_string(l.wall_s) + " s and was killed");
    else if (!o.exited)
      fail(tag + "\n  killed by signal " + std::to_string(o.signal) + " (" + strsignal(o.signal) +
           ")");
    else if (!class_accepts(r.exit_class, o))
      fail(tag + "\n  exit " + std::to_string(o.code) + ", expected " + r.exit_class);
    if (o.err.find("internal error") != std::string::npos)
      fail(tag + "\n  stderr says \"internal error\"");
    if (o.cpu_s > l.cpu_s)
      fail(tag + "\n  used " + std::to_string(o.cpu_s) + " s of CPU, bound " +
           std::to_string(l.cpu_s));
    if (o.rss_kib / 1024 > l.rss_mib)
      fail(tag + "\n  max RSS " + std::to_string(o.rss_kib / 1024) + " MiB, bound " +
           std::to_string(l.rss_mib) + " MiB");
    for (auto& s : r.err_has)
      if (o.err.find(substitute(s)) == std::string::npos)
        fail(tag + "\n  stderr lacks \"" + substitute(s) + "\"");
    for (auto& s : r.err_lacks)
      if (o.err.find(substitute(s)) != std::string::npos)
        fail(tag + "\n  stderr has \"" + substitute(s) + "\"");
    for (auto& s : r.err_re)
      if (!std::regex_search(o.err, std::regex(substitute(s))))
        fail(tag + "\n  stderr does not match /" + substitute(s) + "/");
    for (auto& s : r.out_has)
      if (o.out.find(substitute(s)) == std::string::npos)
        fail(tag + "\n  stdout lacks \"" + substitute(s) + "\"");
    for (auto& s : r.out_lacks)
      if (o.out.find(substitute(s)) != std::string::npos)
        fail(tag + "\n  stdout has \"" + substitute(s) + "\"");
    if (failures != before) std::printf("  stderr of the run:\n%s\n", head(o.err).c_str());
  }
  for (pid_t pid : background) {
    ::kill(-pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
  }

  std::string canary_after = describe(work + "/canary");
  if (canary_after != canary_before)
    fail(c.name + ": the canary folder changed\n--- before\n" + head(canary_before, 3000) +
         "--- after\n" + head(canary_after, 3000));
  if (auto log = slurp(work + "/sentinel.log"))
    fail(c.name + ": a process was started from snapshot text (the sentinel touch ran):\n" +
         head(*log));
  step = 0;
  for (auto& s : c.checks) {
    std::string err;
    int rc = shell(s, base_env, 60, work + "/logs/check" + std::to_string(++step), &err);
    if (rc != 0) fail(c.name + ": check failed: " + s + "\n" + head(err));
  }
  if (failures == 0) {
    // Leave nothing behind (a materialized tree may hold mode-0000 files: chmod first).
    (void)hwaccel::testing::run_command("chmod -R u+rwX " + shell_quote(work) +
                                        " 2>/dev/null; rm -rf " + shell_quote(work));
    std::printf("PASS %s\n", c.name.c_str());
    return 0;
  }
  // Kept for a look, less the generated giants (a 1 GiB sparse file, 100k SKUs).
  (void)hwaccel::testing::run_command("find " + shell_quote(work) +
                                      " -xdev -type f -size +16M -delete 2>/dev/null");
  std::printf("FAILED %s: %d failure(s); the work folder %s is kept\n", c.name.c_str(), failures,
              work.c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: hostile_runner MANIFEST CASE|--list\n");
    return 2;
  }
  ::signal(SIGPIPE, SIG_IGN);
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  auto cases = read_manifest(argv[1]);
  if (!cases) {
    std::fprintf(stderr, "hostile_runner: cannot read the manifest %s\n", argv[1]);
    return 2;
  }
  if (std::string(argv[2]) == "--list") {
    for (auto& c : *cases) std::printf("%s\n", c.name.c_str());
    return 0;
  }
  for (auto& c : *cases)
    if (c.name == argv[2]) return run_case(c);
  std::fprintf(stderr, "hostile_runner: no case %s in %s\n", argv[2], argv[1]);
  return 2;
}
