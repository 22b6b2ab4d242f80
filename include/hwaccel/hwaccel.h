/* hwaccel C API: detect the accelerators of this machine (or of a recorded
   snapshot), ask how many, how much memory, and which device a request gets.

   Every function is prefixed hwaccel_, never throws, and reports failure by a
   status code; hwaccel_last_error() then says what went wrong (per thread).
   Strings the library returns are freed with hwaccel_string_free, detections
   with hwaccel_detection_free. See docs/library.md. */
#ifndef HWACCEL_HWACCEL_H
#define HWACCEL_HWACCEL_H

#include <stddef.h>
#include <stdint.h>

#include "hwaccel/export.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum hwaccel_status {
  HWACCEL_OK = 0,
  HWACCEL_ERROR_INVALID_ARGUMENT = 1, /* a NULL handle or out pointer, a malformed request */
  HWACCEL_ERROR_BAD_INPUT = 2,        /* the snapshot file is unreadable or malformed */
  HWACCEL_ERROR_NOT_COMPILED = 3,     /* the request names a backend this build lacks */
  HWACCEL_ERROR_NOT_READY = 4,        /* the request names a device that is not ready */
  HWACCEL_ERROR_UNSATISFIED = 5,      /* nothing satisfies the request */
  HWACCEL_ERROR_INTERNAL = 6          /* a bug: please report it */
} hwaccel_status;

/* An opaque detection: every backend's line and every device. */
typedef struct hwaccel_detection hwaccel_detection;

/* "0.1.0" */
HWACCEL_API const char* hwaccel_version(void);
/* "ok", "bad-input", ... */
HWACCEL_API const char* hwaccel_status_name(hwaccel_status status);
/* The message of the last failed call on this thread ("" when none). Valid
   until the next call on this thread. */
HWACCEL_API const char* hwaccel_last_error(void);

/* Detects this machine (every backend, tools limited to 5 s each). */
HWACCEL_API hwaccel_status hwaccel_detect(hwaccel_detection** out);
/* Detects the host recorded in a snapshot file (hwaccel detect --record). */
HWACCEL_API hwaccel_status hwaccel_detect_snapshot(const char* path, hwaccel_detection** out);
HWACCEL_API void hwaccel_detection_free(hwaccel_detection* detection);

/* Devices of every backend, ready or not (a CPU is one device). */
HWACCEL_API size_t hwaccel_device_count(const hwaccel_detection* detection);
/* 1 when at least one accelerator (not the CPU) is ready, else 0. */
HWACCEL_API int hwaccel_has_accelerator(const hwaccel_detection* detection);
/* Total memory of the ready accelerators, each physical device counted once. */
HWACCEL_API uint64_t hwaccel_accelerator_memory_bytes(const hwaccel_detection* detection);

/* Device i (0 <= i < hwaccel_device_count) of a detection, in the order of
   `hwaccel detect`. Strings belong to the detection (valid until
   hwaccel_detection_free); NULL for a NULL detection or i out of range, ""
   for a field that is unknown. */
/* "cuda:0" */
HWACCEL_API const char* hwaccel_device_id(const hwaccel_detection* detection, size_t i);
HWACCEL_API const char* hwaccel_device_backend(const hwaccel_detection* detection, size_t i);
/* "ready" or "unavailable" */
HWACCEL_API const char* hwaccel_device_status(const hwaccel_detection* detection, size_t i);
/* Why not ready: a code ("driver-not-found") and the detail; "" when ready. */
HWACCEL_API const char* hwaccel_device_reason_code(const hwaccel_detection* detection, size_t i);
HWACCEL_API const char* hwaccel_device_reason_detail(const hwaccel_detection* detection, size_t i);
HWACCEL_API const char* hwaccel_device_name(const hwaccel_detection* detection, size_t i);
HWACCEL_API const char* hwaccel_device_vendor(const hwaccel_detection* detection, size_t i);
/* "discrete", "unified" or "host" */
HWACCEL_API const char* hwaccel_device_memory_kind(const hwaccel_detection* detection, size_t i);
/* "0000:18:00.0", "" when the device is not a PCI function */
HWACCEL_API const char* hwaccel_device_bus_id(const hwaccel_detection* detection, size_t i);
/* The same for one device seen through two backends: "pci:0000:18:00.0" */
HWACCEL_API const char* hwaccel_device_physical_id(const hwaccel_detection* detection, size_t i);
/* "sm_90", "gfx942", "avx512" */
HWACCEL_API const char* hwaccel_device_compute_class(const hwaccel_detection* detection, size_t i);
/* "GPU-8932f937-..." or "MIG-..." (NVIDIA), the device's UUID: what a program
   puts in CUDA_VISIBLE_DEVICES (or ROCR_VISIBLE_DEVICES) to name it alone. */
HWACCEL_API const char* hwaccel_device_uuid(const hwaccel_detection* detection, size_t i);
/* The ordinal this process's runtime opens the device by (CUDA's cuDeviceGet
   after CUDA_VISIBLE_DEVICES and CUDA_DEVICE_ORDER; HIP's after
   ROCR_VISIBLE_DEVICES and HIP_VISIBLE_DEVICES): 1 with *ordinal_out set, else 0
   (*ordinal_out = -1): hidden from this process, or a backend without such a
   numbering. hwaccel_device_id keeps the backend's own index ("cuda:2" may be
   CUDA ordinal 0). */
HWACCEL_API int hwaccel_device_ordinal(const hwaccel_detection* detection, size_t i,
                                       int* ordinal_out);
/* The NUMA node the device is attached to: 1 with *node_out set when known,
   else 0 (*node_out = -1). */
HWACCEL_API int hwaccel_device_numa_node(const hwaccel_detection* detection, size_t i,
                                         int* node_out);
/* A slice of a device offered as a device of its own (an NVIDIA MIG device, an
   AMD compute partition): its profile ("3g.40gb", "CPX") and the whole device's
   id ("cuda:0"); "" for a whole device. */
HWACCEL_API const char* hwaccel_device_partition_profile(const hwaccel_detection* detection,
                                                         size_t i);
HWACCEL_API const char* hwaccel_device_partition_parent(const hwaccel_detection* detection,
                                                        size_t i);
/* Memory in bytes: 1 with *bytes_out set when known, else 0 (*bytes_out = 0). */
HWACCEL_API int hwaccel_device_memory_total(const hwaccel_detection* detection, size_t i,
                                            uint64_t* bytes_out);
HWACCEL_API int hwaccel_device_memory_free(const hwaccel_detection* detection, size_t i,
                                           uint64_t* bytes_out);

/* The device a request gets, as a label ("cuda:0") in *device_out (free it
   with hwaccel_string_free). A request is "" (the default choice), a device
   ("cuda:1", "pci:0000:3b:00.0"), a backend ("rocm") and requirements ("gpu",
   "npu", "tpu", "accelerator", "mem>=40G"), separated by spaces or commas. The
   memory reserve of HWACCEL_RESERVE_BYTES (default 3584 MiB) applies. */
HWACCEL_API hwaccel_status hwaccel_select(const hwaccel_detection* detection, const char* request,
                                          char** device_out);

/* The same choice as hwaccel_select, as the device's position i for the
   hwaccel_device_* accessors (its ordinal, UUID, NUMA node...). */
HWACCEL_API hwaccel_status hwaccel_select_index(const hwaccel_detection* detection,
                                                const char* request, size_t* index_out);

/* The hwaccel-detect/1 JSON document (as `hwaccel detect --json` prints it). */
HWACCEL_API hwaccel_status hwaccel_json(const hwaccel_detection* detection, char** json_out);

HWACCEL_API void hwaccel_string_free(char* string);

#ifdef __cplusplus
}
#endif

#endif /* HWACCEL_HWACCEL_H */
