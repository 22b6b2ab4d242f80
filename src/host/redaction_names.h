// Identifiers that redaction finds by their class rather than by one spelling
// (issue 31): MACs in the notations of switches and of `ip link`, names that
// embed an address or name a cloud's internal host, Kubernetes pod names and
// the recording user's name as a word. Each pass is linear and leaves its own
// pseudonyms as they are (redacting twice changes nothing). Internal to
// src/host/redaction*.cpp and their tests.
#pragma once

#include <set>
#include <string>
#include <string_view>

#include "src/host/redaction_text.h"

namespace hwaccel::redaction {

// aabb.ccdd.eeff and aabb-ccdd-eeff (Cisco, H3C; with a hex letter, or on a
// line that says MAC), and twelve bare hex digits after a word that says MAC
// (HWaddr, ether, lladdr, address, mac, ...: `ifconfig`, `ip link`).
std::string macs_by_notation(std::string_view in, Pseudonyms& names);

// A whole file that is one bare MAC (/sys/class/net/*/address written without
// colons): its pseudonym; anything else unchanged.
std::string bare_mac_file(std::string_view in, Pseudonyms& names);

// Host names of a cloud's internal DNS (ip-10-0-1-23.ec2.internal,
// REGION.compute.internal, INSTANCE.ZONE.c.PROJECT.internal, Azure's
// NAME.ID.xx.internal.cloudapp.net): all before the generic suffix becomes a
// host pseudonym. Well-known service names (metadata.google.internal,
// host.docker.internal) stay.
std::string internal_host_names(std::string_view in, Pseudonyms& names);

// Addresses written with dashes inside a name: ip-10-0-1-23, ec2-54-1-2-3,
// 10-0-1-23.default.pod.cluster.local. The address gets its pseudonym (from
// the documentation ranges), the shape stays.
std::string dashed_addresses(std::string_view in, Pseudonyms& names);

// Pod names of a Deployment's ReplicaSet: NAME-HASH-XXXXX, HASH 6 to 10 and
// XXXXX 5 characters of Kubernetes' vowel-free alphabet (or an older
// all-digit hash): a host pseudonym each.
std::string pod_names(std::string_view in, Pseudonyms& names);

// Whole words equal to one of `users` (the recording user's name in tool
// output: `ps`, file owners), except account names every machine of a kind has
// (ubuntu, ec2-user, admin, ...), which name nobody and are words of os-release.
std::string user_words(std::string_view in, const std::set<std::string, std::less<>>& users,
                       Pseudonyms& names);
bool is_common_account(std::string_view name);

}  // namespace hwaccel::redaction
