// Why a backend or a device is not usable. Every failure ends up as one of these
// codes plus a detail in the tool's or the file's own words.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace hwaccel {

enum class ReasonCode {
  not_compiled,          // the backend was left out of this build
  tool_not_found,        // the vendor tool is not on PATH
  driver_not_found,      // the tool or the bus says the kernel driver is missing
  no_device,             // the backend works but sees no device
  no_backend,            // a device exists but is not an accelerator (software renderer)
  probe_failed,          // the tool failed or printed what we could not read
  timeout,               // the tool did not finish in time
  permission_denied,     // the device or the tool may not be opened by this user
  reserve_exceeds_free,  // less free memory than the reserve asks for
  not_visible,           // hidden from programs by CUDA_VISIBLE_DEVICES / HIP_VISIBLE_DEVICES
};

std::string_view to_string(ReasonCode code);
std::optional<ReasonCode> reason_code_from_string(std::string_view text);

struct Reason {
  ReasonCode code = ReasonCode::probe_failed;
  std::string detail;  // one line, human-readable; may be empty
};

}  // namespace hwaccel
