/* The C API from a C program: detect a recorded DGX H100 (8x H100 80GB), ask
   the questions a runtime asks, and check failures come back as codes with
   messages. Linked against the shared libhwaccel.so. Usage: capi_test FIXTURES_DIR */
#include <stdio.h>
#include <string.h>

#include "hwaccel/hwaccel.h"

static int failures = 0;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

static void path_of(char* out, size_t size, const char* dir, const char* name) {
  snprintf(out, size, "%s/%s.yaml", dir, name);
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: capi_test FIXTURES_DIR\n");
    return 2;
  }
  char path[4096];
  hwaccel_detection* d = NULL;
  char* text = NULL;

  CHECK(strcmp(hwaccel_version(), "") != 0);

  path_of(path, sizeof path, argv[1], "dgx-h100");
  CHECK(hwaccel_detect_snapshot(path, &d) == HWACCEL_OK);
  CHECK(d != NULL);
  CHECK(hwaccel_device_count(d) == 9); /* 8 GPUs and the CPU */
  CHECK(hwaccel_has_accelerator(d) == 1);
  /* 8 x 81559 MiB, as nvidia-smi reports an H100 80GB HBM3 */
  CHECK(hwaccel_accelerator_memory_bytes(d) == 8ull * 81559ull * 1024ull * 1024ull);

  CHECK(hwaccel_select(d, "", &text) == HWACCEL_OK);
  CHECK(text && strcmp(text, "cuda:0") == 0);
  hwaccel_string_free(text);
  text = NULL;
  CHECK(hwaccel_select(d, "cuda:3", &text) == HWACCEL_OK);
  CHECK(text && strcmp(text, "cuda:3") == 0);
  hwaccel_string_free(text);
  text = NULL;

  CHECK(hwaccel_select(d, "gpu mem>=200G", &text) == HWACCEL_ERROR_UNSATISFIED);
  CHECK(text == NULL);
  CHECK(strstr(hwaccel_last_error(), "available") != NULL);
#ifdef CAPI_TEST_VULKAN_LEFT_OUT
  /* Built as with -DHWACCEL_BACKEND_VULKAN=OFF (tests/ecosystem.cmake). */
  CHECK(hwaccel_select(d, "vulkan", &text) == HWACCEL_ERROR_NOT_COMPILED);
  CHECK(strstr(hwaccel_last_error(), "no vulkan backend") != NULL);
#else
  /* Built in, but this DGX has no vulkaninfo: not ready, and the message says why. */
  CHECK(hwaccel_select(d, "vulkan", &text) == HWACCEL_ERROR_NOT_READY);
  CHECK(strstr(hwaccel_last_error(), "vulkaninfo not found") != NULL);
#endif
  CHECK(text == NULL);
  CHECK(hwaccel_select(d, "mem>=lots", &text) == HWACCEL_ERROR_INVALID_ARGUMENT);
  CHECK(strstr(hwaccel_last_error(), "mem>=lots") != NULL);
  CHECK(strcmp(hwaccel_status_name(HWACCEL_ERROR_NOT_READY), "not-ready") == 0);

  /* Per-device accessors: no JSON parser needed. */
  {
    uint64_t bytes = 1;
    CHECK(strcmp(hwaccel_device_id(d, 0), "cuda:0") == 0);
    CHECK(strcmp(hwaccel_device_backend(d, 0), "cuda") == 0);
    CHECK(strcmp(hwaccel_device_status(d, 0), "ready") == 0);
    CHECK(strcmp(hwaccel_device_reason_code(d, 0), "") == 0);
    CHECK(strcmp(hwaccel_device_reason_detail(d, 0), "") == 0);
    CHECK(strcmp(hwaccel_device_name(d, 0), "NVIDIA H100 80GB HBM3") == 0);
    CHECK(strcmp(hwaccel_device_vendor(d, 0), "NVIDIA") == 0);
    CHECK(strcmp(hwaccel_device_memory_kind(d, 0), "discrete") == 0);
    CHECK(strcmp(hwaccel_device_bus_id(d, 0), "0000:1b:00.0") == 0);
    CHECK(strcmp(hwaccel_device_physical_id(d, 0), "pci:0000:1b:00.0") == 0);
    CHECK(strcmp(hwaccel_device_compute_class(d, 0), "sm_90") == 0);
    CHECK(hwaccel_device_memory_total(d, 0, &bytes) == 1 && bytes == 85520809984ull);
    CHECK(hwaccel_device_memory_free(d, 0, &bytes) == 1 && bytes == 84941996032ull);
    CHECK(strcmp(hwaccel_device_id(d, 8), "cpu:0") == 0);
    CHECK(strcmp(hwaccel_device_memory_kind(d, 8), "host") == 0);
    CHECK(strcmp(hwaccel_device_bus_id(d, 8), "") == 0);
    CHECK(hwaccel_device_id(d, 9) == NULL); /* out of range */
    CHECK(hwaccel_device_name(NULL, 0) == NULL);
    CHECK(hwaccel_device_memory_total(d, 9, &bytes) == 0 && bytes == 0);
    {
      int value = 0;
      CHECK(strcmp(hwaccel_device_uuid(d, 4), "GPU-31738888-160a-124a-1918-044a63674727") == 0);
      CHECK(hwaccel_device_ordinal(d, 4, &value) == 1 && value == 4);
      CHECK(hwaccel_device_numa_node(d, 4, &value) == 1 && value == 1);
      CHECK(hwaccel_device_ordinal(d, 8, &value) == 0 && value == -1); /* the CPU */
      CHECK(strcmp(hwaccel_device_uuid(d, 8), "") == 0);
    }
  }

  CHECK(hwaccel_json(d, &text) == HWACCEL_OK);
  CHECK(text && strstr(text, "\"schema\": \"hwaccel-detect/1\"") != NULL);
  hwaccel_string_free(text);
  hwaccel_detection_free(d);
  d = NULL;

  /* A missing driver: no accelerator, and asking for cuda:0 says why. */
  path_of(path, sizeof path, argv[1], "nvidia-no-driver");
  CHECK(hwaccel_detect_snapshot(path, &d) == HWACCEL_OK);
  CHECK(hwaccel_has_accelerator(d) == 0);
  CHECK(hwaccel_accelerator_memory_bytes(d) == 0);
  CHECK(hwaccel_select(d, "cuda:0", &text) == HWACCEL_ERROR_NOT_READY);
  CHECK(strstr(hwaccel_last_error(), "driver") != NULL);
  {
    uint64_t bytes = 1;
    CHECK(strcmp(hwaccel_device_status(d, 0), "unavailable") == 0);
    CHECK(strcmp(hwaccel_device_reason_code(d, 0), "driver-not-found") == 0);
    CHECK(strstr(hwaccel_device_reason_detail(d, 0), "NVIDIA driver") != NULL);
    CHECK(strcmp(hwaccel_device_compute_class(d, 0), "") == 0);
    CHECK(hwaccel_device_memory_total(d, 0, &bytes) == 0 && bytes == 0);
  }
  hwaccel_detection_free(d);

  /* A MIG host: each device's UUID, partition and CUDA ordinal, so a program can
     build its own CUDA_VISIBLE_DEVICES; unset, CUDA shows only the first MIG device. */
  d = NULL;
  path_of(path, sizeof path, argv[1], "h100-mig");
  CHECK(hwaccel_detect_snapshot(path, &d) == HWACCEL_OK);
  {
    int ordinal = 7, node = 7;
    size_t index = 99;
    CHECK(strcmp(hwaccel_device_id(d, 1), "cuda:1") == 0);
    CHECK(strcmp(hwaccel_device_uuid(d, 1), "MIG-00000000-0000-0000-0000-000000000000") == 0);
    CHECK(strcmp(hwaccel_device_partition_profile(d, 1), "3g.40gb") == 0);
    CHECK(strcmp(hwaccel_device_partition_parent(d, 1), "cuda:0") == 0);
    CHECK(hwaccel_device_ordinal(d, 1, &ordinal) == 1 && ordinal == 0);
    CHECK(hwaccel_device_ordinal(d, 2, &ordinal) == 0 && ordinal == -1);
    CHECK(hwaccel_device_ordinal(d, 0, &ordinal) == 0); /* split into MIG devices */
    CHECK(strcmp(hwaccel_device_partition_profile(d, 0), "") == 0);
    CHECK(strcmp(hwaccel_device_uuid(d, 0), "GPU-00000000-0000-0000-0000-000000000000") == 0);
    CHECK(hwaccel_device_numa_node(d, 0, &node) == 0 && node == -1);
    CHECK(hwaccel_select_index(d, "cuda:2", &index) == HWACCEL_OK && index == 2);
    CHECK(hwaccel_select_index(d, "gpu mem>=1T", &index) == HWACCEL_ERROR_UNSATISFIED);
    CHECK(hwaccel_select_index(d, "", NULL) == HWACCEL_ERROR_INVALID_ARGUMENT);
    CHECK(hwaccel_device_uuid(d, 99) == NULL);
    CHECK(hwaccel_device_ordinal(NULL, 0, &ordinal) == 0);
  }
  hwaccel_detection_free(d);

  /* Bad input is a code and a message naming the file, never a crash. */
  d = NULL;
  CHECK(hwaccel_detect_snapshot("/nonexistent/host.yaml", &d) == HWACCEL_ERROR_BAD_INPUT);
  CHECK(d == NULL);
  CHECK(strstr(hwaccel_last_error(), "/nonexistent/host.yaml") != NULL);
  CHECK(hwaccel_detect_snapshot(NULL, &d) == HWACCEL_ERROR_INVALID_ARGUMENT);
  CHECK(hwaccel_detect(NULL) == HWACCEL_ERROR_INVALID_ARGUMENT);
  CHECK(hwaccel_device_count(NULL) == 0);
  hwaccel_detection_free(NULL);

  if (failures)
    fprintf(stderr, "%d check(s) failed\n", failures);
  else
    printf("capi_test: all checks passed\n");
  return failures ? 1 : 0;
}
