// The fault matrix (issue: never crash, never hang, never trust input). For
// every backend, on a fixture host where it is ready, each fault below is
// injected into what that backend alone reads, and the whole detection runs:
//  - the faulted backend ends with a reason or a warning (the table of results
//    is docs/fault-matrix.md, a golden reviewed by reading it),
//  - every other backend's line and devices are exactly as without the fault,
//  - nothing throws, and detection ends (a runaway parser is caught by a
//    generous bound; speed itself is measured by ci/bench, not here).
// Regenerate the table only with HWACCEL_REGENERATE_GOLDEN=1.
#include <gtest/gtest.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <set>

#include "src/host/snapshot_host.h"
#include "src/registry/detection.h"
#include "src/report/detect_json.h"
#include "tests/support/test_support.h"
#include "tests/unit/reliability/fault_injection.h"

namespace hwaccel {
namespace {

// A fixture where each backend is ready (or, for a backend without one, where
// it finds its devices), and the files and tools that backend alone touches.
struct Subject {
  std::string backend;
  std::string fixture;
};

std::vector<Subject> subjects() {
  std::vector<Subject> all = {{"cuda", "dgx-h100"},
                              {"cuda", "gx10"},
                              {"rocm", "mi300x-8"},
                              {"rocm", "strix-halo"},
                              {"apple", "macbook-pro-m3-max"},
                              {"vulkan", "vulkan-desktop"},
                              {"intel_npu", "meteor-lake-npu"},
                              {"amd_xdna", "ryzen-ai-laptop"},
                              {"oneapi", "intel-max-1550"},
                              {"tpu", "tpu-v5e-8"},
                              {"tpu", "tpu-v4-8"},
                              {"gaudi", "gaudi3-8"},
                              {"neuron", "inf2-48xlarge"},
                              {"neuron", "trn1-32xlarge"},
                              {"qualcomm", "qualcomm-ai100"},
                              {"cpu", "cpu-only"}};
  // Only the fixtures present in this tree (backends land one by one).
  std::vector<Subject> present;
  for (const auto& s : all)
    if (testing::slurp(testing::source_path("fixtures/hosts/" + s.fixture + ".yaml")))
      present.push_back(s);
  return present;
}

std::string backend_summary(const Detection& d, const std::string& backend) {
  std::string out;
  for (const auto& b : d.backends)
    if (b.name == backend) {
      out = b.ready ? "ready" : "unavailable";
      if (b.reason) out += ": " + std::string(to_string(b.reason->code));
      if (b.reason && !b.reason->detail.empty()) out += " (" + b.reason->detail + ")";
    }
  int ready = 0, unavailable = 0;
  std::set<std::string> reasons;
  for (const auto& e : d.entries) {
    if (e.backend != backend) continue;
    (e.status == EntryStatus::ready ? ready : unavailable)++;
    if (e.reason) reasons.insert(std::string(to_string(e.reason->code)));
  }
  if (ready + unavailable > 0) {
    out += "; devices " + std::to_string(ready) + " ready";
    if (unavailable) {
      out += ", " + std::to_string(unavailable) + " unavailable (";
      bool first = true;
      for (const auto& r : reasons) out += (first ? "" : ", ") + r, first = false;
      out += ")";
    }
  }
  int warnings = 0;
  for (const auto& w : d.warnings) warnings += w.backend == backend;
  if (warnings) out += "; " + std::to_string(warnings) + " warning" + (warnings > 1 ? "s" : "");
  // Table cells hold no pipes or newlines.
  for (char& c : out)
    if (c == '|' || c == '\n') c = ' ';
  return out;
}

// Everything about one backend in a detection. For the unaffected check of the
// other backends, warnings are left out: a backend that scans a shared class
// folder (/sys/class/accel) rightly warns when an entry there is unreadable,
// even if the device turns out to be another backend's.
std::string backend_fingerprint(const Detection& d, const std::string& backend,
                                bool with_warnings = true) {
  Detection only;
  only.host = d.host;
  for (const auto& b : d.backends)
    if (b.name == backend) only.backends.push_back(b);
  for (const auto& e : d.entries)
    if (e.backend == backend) only.entries.push_back(e);
  if (with_warnings)
    for (const auto& w : d.warnings)
      if (w.backend == backend) only.warnings.push_back(w);
  return render_detect_json(only);
}

bool regenerating() {
  const char* v = std::getenv("HWACCEL_REGENERATE_GOLDEN");
  return v && std::string(v) == "1";
}

const char* const kTableHeader =
    "| backend | host | fault | what the faulted backend reports | other backends |\n"
    "|---|---|---|---|---|\n";

std::string doc_path() {
  return testing::source_path("docs/fault-matrix.md");
}

std::string doc_header() {
  return "# Fault matrix\n\n"
         "Generated by `tests/unit/reliability/fault_matrix_test.cpp` and compared byte for byte\n"
         "on every test run; regenerate with `HWACCEL_REGENERATE_GOLDEN=1 build/tests/unit_tests\n"
         "--gtest_filter='*FaultMatrix*'` and review the diff. Each fault is applied to the files\n"
         "and tools that the backend alone reads on that host (files shared with another\n"
         "backend, such as /proc/meminfo, are left alone so the other backends' columns stay\n"
         "meaningful). Faults: see `tests/unit/reliability/fault_injection.h`.\n\n" +
         std::string(kTableHeader);
}

std::string row_prefix(const Subject& s) {
  return "| " + s.backend + " | " + s.fixture + " | ";
}

// The rows of the table that belong to one subject, in the order they appear.
std::string rows_of(const std::string& doc, const Subject& subject) {
  std::string rows;
  std::size_t start = 0;
  while (start < doc.size()) {
    auto end = doc.find('\n', start);
    if (end == std::string::npos) end = doc.size();
    std::string line = doc.substr(start, end - start);
    if (line.rfind(row_prefix(subject), 0) == 0) rows += line + "\n";
    start = end + 1;
  }
  return rows;
}

// The table rebuilt with one subject's rows replaced (regeneration only).
std::string with_rows(const std::string& doc, const Subject& subject, const std::string& rows) {
  std::string out = doc_header();
  for (const auto& s : subjects())
    out += s.backend == subject.backend && s.fixture == subject.fixture ? rows : rows_of(doc, s);
  return out;
}

class FaultMatrix : public ::testing::TestWithParam<Subject> {};

TEST_P(FaultMatrix, EveryFaultIsAReasonAndTheOtherBackendsAreUnaffected) {
  const Subject& subject = GetParam();
  auto loaded =
      load_snapshot_file(testing::source_path("fixtures/hosts/" + subject.fixture + ".yaml"));
  ASSERT_FALSE(loaded.error) << loaded.error->to_string();
  const Snapshot& base = *loaded.snapshot;
  Touched mine = touched_by_only(base, subject.backend);
  SnapshotHost clean_host(base);
  Detection clean = detect(clean_host);

  std::string rows;
  for (FaultKind fault : all_fault_kinds()) {
    SCOPED_TRACE(subject.backend + " on " + subject.fixture + ": " + fault_name(fault));
    auto started = std::chrono::steady_clock::now();
    Detection faulted = detect_with_fault(base, mine, fault);
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    EXPECT_LT(seconds, 120.0) << "detection did not end in reasonable time";

    std::string others = "unchanged";
    for (const auto& b : clean.backends) {
      if (b.name == subject.backend) continue;
      if (backend_fingerprint(clean, b.name, false) !=
          backend_fingerprint(faulted, b.name, false)) {
        others = "CHANGED: " + b.name;
        ADD_FAILURE() << b.name << " changed although only " << subject.backend << " was faulted";
      }
    }
    // A fault that leaves the backend exactly as it was is recorded as "no
    // effect": the backend does not use that channel on this host.
    std::string result = backend_summary(faulted, subject.backend);
    if (backend_fingerprint(clean, subject.backend) ==
        backend_fingerprint(faulted, subject.backend))
      result = "no effect (" + result + ")";
    rows += row_prefix(subject) + fault_name(fault) + " | " + result + " | " + others + " |\n";
  }

  std::string doc = testing::slurp(doc_path()).value_or("");
  if (regenerating()) {
    std::ofstream(doc_path(), std::ios::binary) << with_rows(doc, subject, rows);
    return;
  }
  ASSERT_FALSE(doc.empty()) << doc_path()
                            << " is missing; create it with HWACCEL_REGENERATE_GOLDEN=1";
  EXPECT_EQ(rows_of(doc, subject), rows)
      << "the fault matrix changed for " << subject.backend << " on " << subject.fixture
      << "; review and regenerate " << doc_path();
}

// The table holds exactly the subjects tested, under the reviewed header.
TEST(FaultMatrixTable, HoldsEverySubjectAndNothingElse) {
  std::string doc = testing::slurp(doc_path()).value_or("");
  std::string rebuilt = doc_header();
  for (const auto& s : subjects()) rebuilt += rows_of(doc, s);
  EXPECT_EQ(doc, rebuilt) << "stale or foreign rows (or a changed header) in " << doc_path();
}

INSTANTIATE_TEST_SUITE_P(Subjects, FaultMatrix, ::testing::ValuesIn(subjects()),
                         [](const auto& info) {
                           std::string n = info.param.backend + "_" + info.param.fixture;
                           for (char& c : n)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

}  // namespace
}  // namespace hwaccel
