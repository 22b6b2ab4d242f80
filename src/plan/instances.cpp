#include "src/plan/instances.h"

#include <cmath>

#include "src/plan/toml_fields.h"

namespace hwaccel::plan {

InstancesResult parse_instances(std::string_view text, const std::string& file,
                                const Catalogue& catalogue) {
  InstancesResult r;
  try {
    toml::table root = parse_toml(text, file);
    TableReader top(root, file, "");
    top.allow_only({"format", "instance"});
    if (top.text("format") != "hwaccel-instances/1")
      top.fail("format", "expected \"hwaccel-instances/1\"");
    const auto* list = root.get("instance");
    if (!list || !list->is_array_of_tables()) top.fail("instance", "expected [[instance]] entries");
    std::size_t i = 0;
    for (const auto& node : *list->as_array()) {
      TableReader t(*node.as_table(), file, "instance[" + std::to_string(i++) + "]");
      t.allow_only({"provider", "instance", "accelerator", "count", "host_memory_gb",
                    "usd_per_hour", "region", "date", "source"});
      Instance in;
      in.provider = t.text("provider");
      in.instance = t.text("instance");
      in.accelerator = t.text("accelerator");
      if (!catalogue.find(in.accelerator))
        t.fail("accelerator", "\"" + in.accelerator + "\" is not a SKU id of the device catalogue");
      // Checked as a double first: a cast of 1e30 to int is undefined behaviour.
      const double count = t.number("count");
      if (!(count >= 1 && count <= 1024) || count != std::floor(count))
        t.fail("count", "expected 1..1024");
      in.count = static_cast<int>(count);
      in.host_memory_bytes = t.number_in("host_memory_gb", 0, 1e5, "GB") * 1e9;
      in.usd_per_hour = t.number_in("usd_per_hour", 0, 1e6, "USD an hour");
      if (in.usd_per_hour <= 0) t.fail("usd_per_hour", "expected a positive price");
      in.region = t.text("region");
      in.date = t.text("date");
      in.source = t.text("source");
      r.instances.push_back(in);
    }
  } catch (const LocatedError& e) {
    r.error = e.what();
  }
  return r;
}

}  // namespace hwaccel::plan
