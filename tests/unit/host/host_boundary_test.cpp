// Rule 1 of the design: outside src/host/ nothing opens a file, lists a directory,
// spawns a process, reads the environment or the clock. This test scans the
// sources of the library (src/, sim/, python/src/, nvml/, cuda/, vulkan/) for the
// calls that would do it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace hwaccel {
namespace {

namespace fs = std::filesystem;

struct Finding {
  int line = 0;
  std::string rule;
};

bool is_word(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// True when the quote at `at` separates digits (1'000'000), not a char literal.
bool is_digit_separator(std::string_view text, std::size_t at) {
  std::size_t start = at;
  while (start > 0 &&
         (is_word(text[start - 1]) || text[start - 1] == '\'' || text[start - 1] == '.')) {
    --start;
  }
  return start < at && std::isdigit(static_cast<unsigned char>(text[start]));
}

// Blanks out comments, string and character literals (raw strings too), keeping
// newlines so that line numbers still hold: a forbidden word in a comment or a
// message is not a use. `#include "x.h"` goes too; `#include <x>` stays.
std::string strip_comments_and_literals(std::string_view text) {
  std::string out(text);
  auto blank = [&](std::size_t from, std::size_t to) {
    for (std::size_t i = from; i < to && i < out.size(); ++i)
      if (out[i] != '\n') out[i] = ' ';
  };
  std::size_t i = 0;
  while (i < text.size()) {
    if (text.compare(i, 2, "//") == 0) {
      std::size_t end = text.find('\n', i);
      if (end == std::string_view::npos) end = text.size();
      blank(i, end);
      i = end;
    } else if (text.compare(i, 2, "/*") == 0) {
      std::size_t end = text.find("*/", i + 2);
      end = end == std::string_view::npos ? text.size() : end + 2;
      blank(i, end);
      i = end;
    } else if (text[i] == '"' && i > 0 && text[i - 1] == 'R') {
      // R"delim( ... )delim"
      std::size_t open = text.find('(', i);
      if (open == std::string_view::npos) break;
      std::string closing = ")" + std::string(text.substr(i + 1, open - i - 1)) + "\"";
      std::size_t end = text.find(closing, open);
      end = end == std::string_view::npos ? text.size() : end + closing.size();
      blank(i, end);
      i = end;
    } else if (text[i] == '"' || (text[i] == '\'' && !is_digit_separator(text, i))) {
      const char quote = text[i];
      std::size_t end = i + 1;
      while (end < text.size() && text[end] != quote && text[end] != '\n') {
        end += text[end] == '\\' ? 2 : 1;
      }
      end = std::min(end + 1, text.size());
      blank(i, end);
      i = end;
    } else {
      ++i;
    }
  }
  return out;
}

// What precedes a name, to tell a call of the C function from a member call
// (file.open(), x->time()), another namespace's function (Foo::open(), but not
// std:: or ::), or a declaration of one's own (`Duration time() const`).
bool is_call_of_the_global(const std::string& line, std::size_t at) {
  std::size_t i = at;
  while (i > 0 && line[i - 1] == ' ') --i;
  if (i == 0) return true;
  if (line[i - 1] == '.') return false;
  if (i >= 2 && line.compare(i - 2, 2, "->") == 0) return false;
  if (i >= 2 && line.compare(i - 2, 2, "::") == 0) {
    std::size_t j = i - 2;
    while (j > 0 && line[j - 1] == ' ') --j;
    std::size_t word_end = j;
    while (j > 0 && is_word(line[j - 1])) --j;
    std::string qualifier = line.substr(j, word_end - j);
    return qualifier.empty() || qualifier == "std";
  }
  if (is_word(line[i - 1]) || line[i - 1] == '&' || line[i - 1] == '*' || line[i - 1] == '>') {
    // `return time(0)` calls it; `int64_t time(` declares something else.
    std::size_t j = i;
    while (j > 0 && is_word(line[j - 1])) --j;
    std::string word = line.substr(j, i - j);
    static const std::vector<std::string> keywords = {"return", "co_return", "throw", "else", "do",
                                                      "case",   "co_await",  "not",   "and",  "or"};
    return std::find(keywords.begin(), keywords.end(), word) != keywords.end();
  }
  return true;
}

struct Rule {
  std::string name;
  std::string needle;  // a substring every match holds: std::regex is slow, find is not
  std::regex pattern;
  bool global_call_only = false;  // see is_call_of_the_global
};

const std::vector<Rule>& rules() {
  static const std::vector<Rule> all = {
      {"file streams", "fstream", std::regex(R"(\b(i|o)?fstream\b)")},
      {"fopen", "open", std::regex(R"(\b(fopen|fdopen|freopen)\s*\()")},
      {"popen", "popen", std::regex(R"(\bpopen\s*\()")},
      {"open(", "open", std::regex(R"(\b(open|openat|open64)\s*\()"), true},
      {"creat(", "creat", std::regex(R"(\bcreat\s*\()"), true},
      {"directory listing", "dir",
       std::regex(R"(\b(opendir|fdopendir|readdir|readdir_r|scandir)\b)")},
      {"getenv", "getenv", std::regex(R"(\b(secure_)?getenv\b)")},
      {"environ", "environ", std::regex(R"(\benviron\b)")},
      {"posix_spawn", "posix_spawn", std::regex(R"(\bposix_spawnp?\b)")},
      {"exec", "exec",
       std::regex(R"(\b(execl|execlp|execle|execv|execvp|execvpe|execve|fexecve)\s*\()")},
      {"fork(", "fork", std::regex(R"(\b(v?fork)\s*\()")},
      {"system(", "system", std::regex(R"(\bsystem\s*\()"), true},
      {"std::filesystem", "filesystem",
       std::regex(R"(\bfilesystem\s*::|std\s*::\s*filesystem\b|<(experimental/)?filesystem>)")},
      {"wall clock", "_clock", std::regex(R"(\b(system_clock|high_resolution_clock|utc_clock)\b)")},
      {"time(", "time", std::regex(R"(\btime\s*\()"), true},
      {"clock calls", "time",
       std::regex(R"(\b(clock_gettime|gettimeofday|localtime(_r|_s)?|gmtime(_r|_s)?)\b)")},
  };
  return all;
}

std::vector<Finding> scan_source(std::string_view source) {
  std::vector<Finding> findings;
  std::istringstream lines(strip_comments_and_literals(source));
  std::string line;
  for (int number = 1; std::getline(lines, line); ++number) {
    for (const Rule& rule : rules()) {
      if (line.find(rule.needle) == std::string::npos) continue;
      for (auto it = std::sregex_iterator(line.begin(), line.end(), rule.pattern);
           it != std::sregex_iterator(); ++it) {
        auto at = static_cast<std::size_t>(it->position());
        if (rule.global_call_only && !is_call_of_the_global(line, at)) continue;
        findings.push_back({number, rule.name});
        break;
      }
    }
  }
  return findings;
}

std::vector<int> lines_of(const std::vector<Finding>& findings) {
  std::vector<int> out;
  for (const auto& f : findings) out.push_back(f.line);
  return out;
}

TEST(HostBoundary, ScannerFlagsUses) {
  const char* source =
      "#include <filesystem>\n"                                   // 1
      "std::ifstream in(path);\n"                                 // 2
      "auto home = std::getenv(\"HOME\");\n"                      // 3
      "int fd = ::open(p, O_RDONLY);\n"                           // 4
      "FILE* f = fopen(p, \"r\");\n"                              // 5
      "auto t = std::chrono::system_clock::now();\n"              // 6
      "if (fork() == 0) execvp(argv[0], argv);\n"                 // 7
      "std::time_t now = time(nullptr);\n"                        // 8
      "return std::system(command.c_str());\n"                    // 9
      "for (char** e = environ; *e; ++e) {}\n"                    // 10
      "DIR* d = opendir(p); while (readdir(d)) {}\n"              // 11
      "namespace fs = std::filesystem;\n"                         // 12
      "gmtime_r(&t, &tm); clock_gettime(CLOCK_REALTIME, &ts);\n"  // 13
      "FILE* p = popen(\"ls\", \"r\");\n"                         // 14
      "posix_spawnp(&pid, \"x\", 0, 0, argv, envp);\n"            // 15
      "return time(0);\n";                                        // 16
  EXPECT_EQ(lines_of(scan_source(source)),
            (std::vector<int>{1, 2, 3, 4, 5, 6, 7, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}));
}

TEST(HostBoundary, ScannerIgnoresCommentsLiteralsAndLookalikes) {
  const char* source =
      "// std::ifstream, getenv(\"HOME\") and fork() are for src/host/ only\n"
      "/* open(path) and system(cmd)\n"
      "   span lines: time(nullptr) */\n"
      "std::string help = \"reads the environ via getenv(); see open(2)\";\n"
      "auto raw = R\"x(fopen(\"a\") ) \" std::filesystem )x\";\n"
      "char quote = '\"'; int million = 1'000'000; char c = 'x';\n"
      "if (stream.is_open()) file.open(p); ptr->open(p); reopen(p);\n"
      "bool ok = Tool::open(x) && job->system(y) && entry.time() > 0;\n"
      "std::chrono::milliseconds time(std::int64_t ms);\n"
      "const Timestamp& time() const;\n"
      "auto start = std::chrono::steady_clock::now();\n"
      "std::string filesystem_type; int runtime(int); bool environment_ok;\n"
      "std::stringstream ss; std::ostringstream os; std::istream& in = ss;\n"
      "auto q = host.env(\"PATH\"); auto r = host.read(\"/proc/meminfo\");\n";
  auto findings = scan_source(source);
  for (const auto& f : findings) ADD_FAILURE() << "line " << f.line << ": " << f.rule;
}

TEST(HostBoundary, NoMachineAccessOutsideSrcHost) {
  const fs::path repo = HWACCEL_SOURCE_DIR;
  const fs::path allowed = repo / "src" / "host";
  std::vector<std::string> violations;
  std::size_t scanned = 0;
  for (const char* top : {"src", "sim", "python/src", "nvml", "cuda", "vulkan"}) {
    if (!fs::is_directory(repo / top)) continue;
    for (const auto& entry : fs::recursive_directory_iterator(repo / top)) {
      const fs::path& path = entry.path();
      const std::string ext = path.extension().string();
      if (!entry.is_regular_file() ||
          (ext != ".h" && ext != ".cpp" && ext != ".hpp" && ext != ".cc"))
        continue;
      auto [end, _] = std::mismatch(allowed.begin(), allowed.end(), path.begin(), path.end());
      if (end == allowed.end()) continue;  // under src/host/
      std::ifstream in(path, std::ios::binary);
      std::ostringstream text;
      text << in.rdbuf();
      ++scanned;
      for (const Finding& f : scan_source(text.str())) {
        violations.push_back(fs::relative(path, repo).string() + ":" + std::to_string(f.line) +
                             ": " + f.rule);
      }
    }
  }
  EXPECT_GT(scanned, 0u) << "no sources found under " << repo;
  for (const auto& v : violations) ADD_FAILURE() << v << " (only src/host/ may touch the machine)";
}

}  // namespace
}  // namespace hwaccel
