// _hwaccel: the C++ half of the Python package (python/hwaccel/ is the other).
// It hands back JSON text and opaque detections; the Python half turns them
// into typed objects and exceptions. Probes and planning run without the GIL.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>

#include "python/src/session.h"
#include "src/registry/detection.h"
#include "src/report/detect_text.h"

namespace py = pybind11;
using hwaccel::python::Detected;
using hwaccel::python::Failure;

PYBIND11_MODULE(_hwaccel, m) {
  m.doc() = "hwaccel's C++ core; use the hwaccel package instead.";
  m.attr("__version__") = HWACCEL_VERSION;
  // Raised as _Failure(exit_code, message); hwaccel/_errors.py maps it.
  static py::exception<Failure> failure(m, "_Failure");
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const Failure& f) {
      PyErr_SetObject(failure.ptr(), py::make_tuple(f.code, f.what()).ptr());
    }
  });

  py::class_<Detected, std::shared_ptr<Detected>>(m, "_Detected")
      .def("json", &hwaccel::python::detect_json, py::call_guard<py::gil_scoped_release>())
      .def(
          "text", [](const Detected& d) { return hwaccel::render_detect_text(d.detection); },
          py::call_guard<py::gil_scoped_release>())
      .def_readonly("source", &Detected::source);

  m.def(
      "detect",
      [](std::optional<std::string> snapshot, std::vector<std::string> only,
         std::optional<double> timeout, std::optional<std::string> root,
         std::optional<std::string> record, bool redact, bool force, bool root_tools) {
        hwaccel::python::Source source{snapshot, root, only, timeout, root_tools};
        return std::make_shared<Detected>(
            hwaccel::python::detect_source(source, record, redact, force));
      },
      py::arg("snapshot"), py::arg("only"), py::arg("timeout"), py::arg("root"),
      py::arg("record") = py::none(), py::arg("redact") = true, py::arg("force") = false,
      py::arg("root_tools") = false, py::call_guard<py::gil_scoped_release>());

  m.def(
      "select",
      [](const Detected& d, const std::string& request, std::optional<std::string> reserve) {
        auto s = hwaccel::python::select_request(d, request, reserve);
        return py::make_tuple(s.entry, s.reason, s.device_json, s.reserve_bytes, s.reserve_source);
      },
      py::arg("detected"), py::arg("request"), py::arg("reserve"));

  m.def(
      "plan",
      [](const Detected& d, std::string model, std::optional<std::string> quant, std::string kv,
         int context, int batch, int decode_batch, std::optional<std::string> reserve,
         std::vector<std::string> on, std::vector<std::string> add, std::vector<std::string> remove,
         std::optional<std::string> runtime, std::string flash_attn,
         std::optional<double> gpu_memory_utilization) {
        hwaccel::python::PlanArgs a;
        a.runtime = std::move(runtime);
        a.flash_attn = std::move(flash_attn);
        a.gpu_memory_utilization = gpu_memory_utilization;
        a.model = std::move(model);
        a.quant = std::move(quant);
        a.kv = std::move(kv);
        a.context = context;
        a.batch = batch;
        a.decode_batch = decode_batch;
        a.reserve = std::move(reserve);
        a.on = std::move(on);
        a.add = std::move(add);
        a.remove = std::move(remove);
        hwaccel::python::Planned p;
        {
          py::gil_scoped_release release;
          p = hwaccel::python::plan_model(d, a);
        }
        return py::make_tuple(p.json, p.text, p.fits);
      },
      py::arg("detected"), py::arg("model"), py::arg("quant"), py::arg("kv"), py::arg("context"),
      py::arg("batch"), py::arg("decode_batch"), py::arg("reserve"), py::arg("on"), py::arg("add"),
      py::arg("remove"), py::arg("runtime") = py::none(), py::arg("flash_attn") = "auto",
      py::arg("gpu_memory_utilization") = py::none());

  m.def("backends", &hwaccel::reported_backend_names,
        "Every backend this build reports, in report order.");
  m.def("compiled_backends", &hwaccel::backend_names,
        "The backends this build runs (without those left out at build time).");
}
