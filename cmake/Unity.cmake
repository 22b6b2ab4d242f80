# Unity builds (HWACCEL_UNITY=OFF builds each file alone): CMake compiles a
# target's files in batches of 16, one compiler run per batch. The library's
# files share their headers and the templates they instantiate (std::string,
# vectors, yaml-cpp, nlohmann/json); in a batch those are parsed and compiled
# once instead of once per file. On CI's two cores that is the largest part of
# each build (docs/performance.md, "CI time").
#
# A file whose file-local names (anonymous namespaces, statics) clash with
# another file's in the same batch is compiled alone: hwaccel_unity_alone()
# below. ci/fuzz builds without batches, so every file still compiles on its
# own includes.
option(HWACCEL_UNITY "Compile each target's files in batches (CMake unity build)" ON)
if(HWACCEL_UNITY AND NOT DEFINED CMAKE_UNITY_BUILD)
  set(CMAKE_UNITY_BUILD ON)
  set(CMAKE_UNITY_BUILD_BATCH_SIZE 16)
endif()

# The files that are compiled alone, relative to the source folder, and why.
set(HWACCEL_UNITY_ALONE
    # defines toml++'s implementation (TOML_IMPLEMENTATION) for the whole library
    src/plan/toml_implementation.cpp
    # The rest, found by building: each defines a file-local helper (in an
    # anonymous namespace) under a name a batch neighbour also uses. Renaming
    # those would let them join a batch.
    sim/emulate/nvidia_smi_model.cpp
    sim/emulate/rocm_smi.cpp
    sim/emulate/systemd_detect_virt.cpp
    sim/mutate.cpp
    src/host/process_runner.cpp
    src/host/sandbox_cover.cpp
    src/host/sandbox_mask.cpp
    src/host/sandbox_runner.cpp
    src/probe/cuda_mig_sizes.cpp
    src/probe/nvidia_kernel_gpus.cpp
    src/probe/nvidia_smi_list.cpp
    src/probe/nvidia_smi_q.cpp
    src/probe/nvidia_smi_topo.cpp
    src/probe/rocm_probe.cpp
    src/probe/tpu_probe.cpp
    src/probe/vulkan_probe.cpp
    src/registry/saved_detection.cpp
    src/report/system_text.cpp
    src/system/runtime_env.cpp
    src/host/private_file.cpp
    src/probe/neuron_probe.cpp
    src/probe/cuda_query_entries.cpp
    src/probe/nvidia_smi_processes.cpp
    tests/cli/hwsim_emulate_cli_test.cpp
    tests/cli/hwsim_run_cli_test.cpp
    tests/cli/output_file_test.cpp
    tests/cli/plan_gguf_cli_test.cpp
    tests/cli/plan_runtime_cli_test.cpp
    tests/cli/request_contract_cli_test.cpp
    tests/cli/root_tools_cli_test.cpp
    tests/golden/plan_golden_test.cpp
    tests/prop/selection_prop_test.cpp
    tests/cli/user_paths_cli_test.cpp
    tests/support/run_command.cpp
    tests/support/test_support.cpp
    tests/unit/host/live_host_test.cpp
    tests/unit/host/process_runner_test.cpp
    tests/unit/host/redaction_planted_test.cpp
    tests/unit/plan/gguf_test.cpp
    tests/unit/plan/planner_test.cpp
    tests/unit/plan/runtime_test.cpp
    tests/unit/probe/cuda_capture_test.cpp
    tests/unit/probe/cuda_mig_sizes_test.cpp
    tests/unit/probe/cuda_nvml_path_test.cpp
    tests/unit/probe/cuda_probe_test.cpp
    tests/unit/probe/gaudi_probe_test.cpp
    tests/unit/probe/hl_smi_csv_test.cpp
    tests/unit/probe/neuron_probe_test.cpp
    tests/unit/probe/new_backends_probe_test.cpp
    tests/unit/probe/nvidia_kernel_gpus_test.cpp
    tests/unit/probe/nvidia_smi_mig_test.cpp
    tests/unit/probe/nvidia_smi_q_test.cpp
    tests/unit/probe/qaic_util_test.cpp
    tests/unit/reliability/user_file_limits_test.cpp
    tests/unit/sim/fleet_plan_test.cpp
    tests/unit/sim/materialize_test.cpp
    tests/unit/sim/numbers_in_sim_test.cpp
    tests/unit/sim/nvidia_software_test.cpp
    tests/unit/sim/presets_test.cpp
    tests/unit/sim/spec_reader_test.cpp
    tests/unit/sim/synth_families_test.cpp
    tests/unit/sim/synth_test.cpp
    tests/unit/probe/tpu_probe_test.cpp
    tests/unit/sim/emulate/nvidia_smi_monitor_test.cpp
    tests/unit/sim/mutate_test.cpp
    tests/unit/sim/shim_script_test.cpp
    tests/unit/snapshot/snapshot_limits_test.cpp
    tests/unit/sim/tree_import_test.cpp
    tests/cli/links_inside_cli_test.cpp
    vulkan/vulkan_physical.cpp
    vulkan/vulkan_device.cpp
    tests/unit/sim/ttar_test.cpp
)

# Marks HWACCEL_UNITY_ALONE in every folder that compiles them (call it after
# the folders are added: a source file's properties belong to a folder).
function(hwaccel_unity_alone)
  set(files)
  foreach(f ${HWACCEL_UNITY_ALONE})
    list(APPEND files ${PROJECT_SOURCE_DIR}/${f})
  endforeach()
  set_source_files_properties(${files} DIRECTORY ${ARGN} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
endfunction()
