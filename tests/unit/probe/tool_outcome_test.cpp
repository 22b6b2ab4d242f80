// A tool that is there and will not run is never "not found": its reason says where
// it was found and why it cannot execute, for the shared rule and the vendor probes'.
#include "src/probe/tool_outcome.h"

#include <gtest/gtest.h>

#include "src/probe/cuda_tool.h"

namespace hwaccel {
namespace {

ToolRun run_of(ToolOutcome outcome, int exit_code, std::string err) {
  ToolRun run;
  run.outcome = outcome;
  run.exit_code = exit_code;
  run.err = std::move(err);
  return run;
}

const std::string kNoLoader =
    "found at /usr/bin/nvidia-smi and cannot execute: No such file or directory (its "
    "interpreter /lib64/ld-linux-x86-64.so.2 is missing)";

TEST(ToolOutcome, AMissingLoaderIsFoundAndCannotExecute) {
  const ToolRun run = run_of(ToolOutcome::exited, 126, kNoLoader);
  EXPECT_TRUE(could_not_execute(run));
  auto reason = reason_for_tool_outcome("nvidia-smi", run);
  ASSERT_TRUE(reason);
  EXPECT_EQ(reason->code, ReasonCode::probe_failed);
  EXPECT_EQ(reason->detail, "nvidia-smi " + kNoLoader);
  const Reason cuda = cuda_run_reason(run);
  EXPECT_EQ(cuda.code, ReasonCode::probe_failed);
  EXPECT_EQ(cuda.detail, "nvidia-smi " + kNoLoader);
}

TEST(ToolOutcome, NoExecutePermissionIsFoundAndCannotExecute) {
  const ToolRun run = run_of(ToolOutcome::permission_denied, 0,
                             "found at /opt/x/hl-smi and cannot execute: Permission denied\n");
  auto reason = reason_for_tool_outcome("hl-smi", run);
  ASSERT_TRUE(reason);
  EXPECT_EQ(reason->code, ReasonCode::permission_denied);
  EXPECT_EQ(reason->detail, "hl-smi found at /opt/x/hl-smi and cannot execute: Permission denied");
}

TEST(ToolOutcome, ARecordingWithoutTheLineKeepsItsOldWords) {
  // A snapshot or a fault injection that recorded only the outcome.
  EXPECT_EQ(cannot_run_reason("nvidia-smi", run_of(ToolOutcome::permission_denied, 0, "")).detail,
            "nvidia-smi may not be run by this user");
  // A tool that itself exits 126 with other words is a tool that ran.
  const ToolRun ran = run_of(ToolOutcome::exited, 126, "Failed to initialize NVML\n");
  EXPECT_FALSE(could_not_execute(ran));
  EXPECT_FALSE(reason_for_tool_outcome("nvidia-smi", ran));
}

TEST(ToolOutcome, HostileErrTextIsOneCappedPrintableLine) {
  const ToolRun run =
      run_of(ToolOutcome::exited, 126,
             "found at /x\x1b[31m and cannot execute: " + std::string(5000, 'a') + "\nsecond line");
  const Reason reason = cannot_run_reason("nvidia-smi", run);
  EXPECT_EQ(reason.detail.find('\x1b'), std::string::npos);
  EXPECT_EQ(reason.detail.find('\n'), std::string::npos);
  EXPECT_LT(reason.detail.size(), 400u);
}

}  // namespace
}  // namespace hwaccel
