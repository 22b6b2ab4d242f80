/* A small Vulkan program, as discovery code in runtimes is: it loads the real
 * loader (libvulkan.so.1), creates an instance, lists the physical devices with
 * their properties, IDs, driver, memory heaps and queue families, creates a
 * device, gets its queue and submits an empty batch. One line a device, then one
 * for the submission; tests/vulkan/compare.py reads them. Exit 0 when an instance
 * was made, 3 when vkCreateInstance failed (its VkResult printed). */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <vulkan/vulkan.h>

static PFN_vkGetInstanceProcAddr gipa;

#define LOAD(inst, name) PFN_##name name = (PFN_##name)gipa(inst, #name)

static const char* type_name(VkPhysicalDeviceType t) {
  switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated";
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "cpu";
    default: return "other";
  }
}

int main(void) {
  void* lib = dlopen("libvulkan.so.1", RTLD_NOW);
  if (!lib) {
    printf("no loader: %s\n", dlerror());
    return 2;
  }
  gipa = (PFN_vkGetInstanceProcAddr)dlsym(lib, "vkGetInstanceProcAddr");
  LOAD(NULL, vkCreateInstance);
  VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO, NULL, "hwsim-vulkan-client", 1,
                           NULL, 0, VK_API_VERSION_1_3};
  VkInstanceCreateInfo ici = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, NULL, 0, &app, 0, NULL, 0,
                              NULL};
  VkInstance instance;
  VkResult r = vkCreateInstance(&ici, NULL, &instance);
  if (r != VK_SUCCESS) {
    printf("vkCreateInstance %d\n", (int)r);
    return 3;
  }
  LOAD(instance, vkEnumeratePhysicalDevices);
  LOAD(instance, vkGetPhysicalDeviceProperties2);
  LOAD(instance, vkGetPhysicalDeviceMemoryProperties);
  LOAD(instance, vkGetPhysicalDeviceQueueFamilyProperties);
  LOAD(instance, vkCreateDevice);
  LOAD(instance, vkDestroyDevice);
  LOAD(instance, vkGetDeviceQueue);
  LOAD(instance, vkQueueSubmit);
  LOAD(instance, vkDeviceWaitIdle);
  LOAD(instance, vkAllocateMemory);
  LOAD(instance, vkDestroyInstance);
  VkPhysicalDevice gpus[64];
  uint32_t n = 64;
  r = vkEnumeratePhysicalDevices(instance, &n, gpus);
  printf("devices %u (%d)\n", n, (int)r);
  for (uint32_t i = 0; i < n; ++i) {
    VkPhysicalDeviceDriverProperties driver;
    VkPhysicalDeviceIDProperties id;
    VkPhysicalDeviceProperties2 p;
    memset(&driver, 0, sizeof driver);
    memset(&id, 0, sizeof id);
    memset(&p, 0, sizeof p);
    driver.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES;
    id.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES;
    id.pNext = &driver;
    p.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
    p.pNext = &id;
    vkGetPhysicalDeviceProperties2(gpus[i], &p);
    VkPhysicalDeviceMemoryProperties mem;
    vkGetPhysicalDeviceMemoryProperties(gpus[i], &mem);
    uint32_t families = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(gpus[i], &families, NULL);
    printf("device %u\tname=%s\tvendor=0x%04x\tdevice=0x%04x\ttype=%s\tapi=%u.%u.%u\tdriver=%s\tuuid=",
           i, p.properties.deviceName, p.properties.vendorID, p.properties.deviceID,
           type_name(p.properties.deviceType), VK_API_VERSION_MAJOR(p.properties.apiVersion),
           VK_API_VERSION_MINOR(p.properties.apiVersion),
           VK_API_VERSION_PATCH(p.properties.apiVersion), driver.driverName);
    for (unsigned b = 0; b < VK_UUID_SIZE; ++b) printf("%02x", id.deviceUUID[b]);
    printf("\tqueue_families=%u\theaps=", families);
    for (uint32_t h = 0; h < mem.memoryHeapCount; ++h)
      printf("%s%llu%s", h ? "," : "", (unsigned long long)mem.memoryHeaps[h].size,
             mem.memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT ? ":local" : "");
    printf("\n");
    /* A device with one queue; an empty submission; a wait. */
    float priority = 1.0f;
    VkDeviceQueueCreateInfo q = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, NULL, 0, 0, 1,
                                 &priority};
    VkDeviceCreateInfo dci = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, NULL, 0, 1, &q, 0, NULL, 0,
                              NULL, NULL};
    VkDevice dev;
    r = vkCreateDevice(gpus[i], &dci, NULL, &dev);
    if (r != VK_SUCCESS) {
      printf("work %u\tcreate_device=%d\n", i, (int)r);
      continue;
    }
    VkQueue queue = VK_NULL_HANDLE;
    vkGetDeviceQueue(dev, 0, 0, &queue);
    VkMemoryAllocateInfo mai = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, NULL, 1 << 20, 0};
    VkDeviceMemory memory;
    VkResult alloc = vkAllocateMemory(dev, &mai, NULL, &memory);
    VkSubmitInfo submit;
    memset(&submit, 0, sizeof submit);
    submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
    VkResult sub = vkQueueSubmit(queue, 1, &submit, VK_NULL_HANDLE);
    VkResult wait = vkDeviceWaitIdle(dev);
    printf("work %u\tcreate_device=0\tqueue=%s\tallocate=%d\tsubmit=%d\twait=%d\n", i,
           queue ? "yes" : "no", (int)alloc, (int)sub, (int)wait);
    vkDestroyDevice(dev, NULL);
  }
  vkDestroyInstance(instance, NULL);
  return 0;
}
