// The calibration table (data/calibration.toml, format hwaccel-calibration/1):
// published measurements of one device, runtime, model and level, the
// estimate the catalogue gives for each, and the fit of a runtime profile on
// its rows (with leave-one-out). No I/O: the caller passes the text.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/plan/catalogue.h"

namespace hwaccel::plan {

struct CalibrationRow {
  std::string id;
  std::string device;   // SKU id
  std::string runtime;  // llama.cpp, vllm, ...
  std::string model;    // built-in model name
  std::string quant;
  int batch = 1;
  int prompt = 0;           // prefill: tokens; decode: tokens already in the KV cache
  int gen = 0;              // decode: tokens generated (decode averages over their middle)
  std::string metric;       // "decode" | "prefill"
  double measured = 0;      // tok/s
  std::string source;       // where, with a commit or a date
  std::string kv = "fp16";  // KV-cache element type (TensorRT-LLM's FP8 builds: fp8)
  int devices = 1;          // >1: tensor parallel over that many devices of the SKU
};

struct CalibrationResult {
  std::vector<CalibrationRow> rows;
  std::string error;  // FILE:LINE:COL: key: what was expected
};
CalibrationResult parse_calibration(std::string_view text, const std::string& file);

// tok/s the catalogue estimates for the row (its runtime's profile on the
// device's class); nullopt with `why` when the row cannot be planned.
std::optional<double> calibration_estimate(const CalibrationRow& row, const Catalogue& cat,
                                           std::string* why = nullptr);

// The profile refitted on `rows` (those of its runtime and class): decode
// by least squares of time = per_token + bytes time / efficiency (two rows of
// different sizes or more; else per_token kept), per_token bounded by what
// every row leaves after its bytes at full bandwidth; prefill efficiency as
// the median over the prefill rows. Where the profile gives moe_layer_us
// (moe_layer_fitted), its MoE rows are kept out of that fit and give the MoE
// cost instead: the median over them of the time each leaves per MoE layer
// after the dense fit, bounded at 0. Rows of another profile are ignored.
RuntimeProfile fit_profile(const RuntimeProfile& start, const std::vector<CalibrationRow>& rows,
                           const Catalogue& cat);

// A prefill row faster than any prefill can be: its measured time is below
// the model's FLOPs (weights and attention) at the dense peak of every device
// of its plan for the format its GEMMs run in, plus the tensor-parallel
// all-reduces a layer waits for at the link's full rate (the weights' bytes,
// which can overlap the GEMMs, and every fixed cost are left out). Such a
// time is not a plain prefill (a cached prefix, a timing artefact). Returns
// why (the times and the rate it implies), or nullopt for a possible row, a
// decode row, or one that cannot be planned. Such a row is left out of
// fit_profile, leave_one_out and the summary of calibration_markdown.
std::optional<std::string> above_peak(const CalibrationRow& row, const Catalogue& cat);

// Leave-one-out: each row estimated with its profile refitted on the other
// rows of the same profile and metric; nullopt for a row alone in its group
// and for a row above_peak.
std::vector<std::optional<double>> leave_one_out(const std::vector<CalibrationRow>& rows,
                                                 const Catalogue& cat);

}  // namespace hwaccel::plan
