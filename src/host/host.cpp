#include "src/host/host.h"

#include <future>
#include <system_error>
#include <utility>

namespace hwaccel {

namespace {

// A run that a host answers only by waiting for it: asked at finish().
class RunAtFinish : public StartedRun {
 public:
  RunAtFinish(Host& host, std::vector<std::string> argv, Timeout timeout)
      : host_(host), argv_(std::move(argv)), timeout_(timeout) {}
  ToolRun finish() override { return host_.run(argv_, timeout_); }

 private:
  Host& host_;
  std::vector<std::string> argv_;
  Timeout timeout_;
};

class FinishedRun : public StartedRun {
 public:
  explicit FinishedRun(ToolRun answer) : answer_(std::move(answer)) {}
  ToolRun finish() override { return std::move(answer_); }
  bool answered() const override { return true; }

 private:
  ToolRun answer_;
};

}  // namespace

std::unique_ptr<StartedRun> finished_run(ToolRun answer) {
  return std::make_unique<FinishedRun>(std::move(answer));
}

std::unique_ptr<StartedRun> Host::start(const std::vector<std::string>& argv, Timeout timeout) {
  return std::make_unique<RunAtFinish>(*this, argv, timeout);
}

std::vector<ToolRun> finish_together(std::vector<std::unique_ptr<StartedRun>> runs) {
  std::vector<std::future<ToolRun>> waits;
  waits.reserve(runs.size());
  for (std::size_t i = 1; i < runs.size(); ++i) {
    StartedRun* run = runs[i].get();
    auto wait = [run] { return run->finish(); };
    try {
      waits.push_back(std::async(std::launch::async, wait));
    } catch (const std::system_error&) {  // no thread: it is waited for at get(), in turn
      waits.push_back(std::async(std::launch::deferred, wait));
    }
  }
  std::vector<ToolRun> answers;
  answers.reserve(runs.size());
  if (!runs.empty()) answers.push_back(runs.front()->finish());
  for (auto& wait : waits) answers.push_back(wait.get());
  return answers;
}

std::vector<ToolRun> Host::run_many(const std::vector<std::vector<std::string>>& argvs,
                                    Timeout timeout) {
  std::vector<std::unique_ptr<StartedRun>> started;
  started.reserve(argvs.size());
  for (const auto& argv : argvs) started.push_back(start(argv, timeout));
  return finish_together(std::move(started));
}

}  // namespace hwaccel
