// Redaction by the class of an identifier, not by the example (issue 31): for
// each class, identifiers generated at random, in random notations and cases,
// inside random text, never survive a redaction; redacting twice changes
// nothing; and text that holds no identifier comes out byte for byte.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cctype>
#include <string>
#include <vector>

#include "src/host/redaction.h"
#include "src/host/redaction_names.h"

namespace hwaccel {
namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
}

// `w` as a whole word of `text`, in any case.
bool has_word(const std::string& text, const std::string& w) {
  const std::string t = lower(text), lw = lower(w);
  for (auto at = t.find(lw); at != std::string::npos; at = t.find(lw, at + 1)) {
    bool left = at == 0 || !word_char(t[at - 1]);
    bool right = at + lw.size() >= t.size() || !word_char(t[at + lw.size()]);
    if (left && right) return true;
  }
  return false;
}

// What tools print around identifiers: words, numbers, versions, PCI
// addresses, sizes, separators. None of it is an identifier.
const std::vector<std::string>& filler_words() {
  static const std::vector<std::string> words = {"GPU",         "driver",
                                                 "Memory",      "state",
                                                 "ok",          "link",
                                                 "up",          "DOWN",
                                                 "the",         "value",
                                                 "Total",       "MiB",
                                                 "80",          "0",
                                                 "mode",        "Power",
                                                 "550.127.05",  "0000:3b:00.0",
                                                 "81559",       "Enabled",
                                                 "N/A",         "version 2.19.64.0",
                                                 "sm_90",       "x86_64",
                                                 "Persistence", "pci.bus_id",
                                                 "cuda 12.4",   "ubuntu",
                                                 "node",        "eth0",
                                                 "mlx5_0",      "mtu 1500",
                                                 "Hopper"};
  return words;
}

// A generated user name that is no word of the text around it.
bool is_no_filler_word(const std::string& u) {
  if (u == "connected" || u == "owner" || u == "cache" || u == "home") return false;
  for (const auto& w : filler_words())
    if (has_word(w, u)) return false;
  return !redaction::is_common_account(u) && !redaction::is_safe_user_name(u);
}

rc::Gen<std::string> filler() {
  auto word = rc::gen::elementOf(filler_words());
  auto sep = rc::gen::element<std::string>(" ", "\n", "\t", ": ", ", ", " = ", "  ");
  return rc::gen::map(rc::gen::container<std::vector<std::pair<std::string, std::string>>>(
                          rc::gen::pair(word, sep)),
                      [](const std::vector<std::pair<std::string, std::string>>& parts) {
                        std::string out;
                        for (const auto& [w, s] : parts) out += w + s;
                        return out;
                      });
}

rc::Gen<std::string> letters(int min, int max) {
  return rc::gen::mapcat(rc::gen::inRange(min, max + 1), [](int n) {
    return rc::gen::container<std::string>(std::size_t(n), rc::gen::inRange('a', char('z' + 1)));
  });
}

std::string hex_byte(int b, bool upper) {
  const char* digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  return {digits[(b >> 4) & 15], digits[b & 15]};
}

// An identifier as it appears, and what of it must not survive.
struct Planted {
  std::string text;
  std::vector<std::string> secrets;  // substrings (any case) that must be gone
};

// A MAC in a notation other than aa:bb:..: dashes, Cisco and H3C groups of
// four, or twelve bare digits after a word that says MAC.
rc::Gen<Planted> mac() {
  return rc::gen::apply(
      [](std::vector<int> bytes, int notation, bool upper, int context) {
        // A first byte of 0x00 or 0x02 is the pseudonyms' range or no identity.
        if (bytes[0] == 0 || bytes[0] == 2) bytes[0] = 0x3c;
        std::string hex;
        for (int b : bytes) hex += hex_byte(b, upper);
        std::string shown;
        switch (notation) {
          case 0:
            for (int k = 0; k < 6; ++k) shown += (k ? "-" : "") + hex.substr(2 * k, 2);
            break;
          case 1:
          case 2:
            for (int k = 0; k < 3; ++k)
              shown += (k ? (notation == 1 ? "." : "-") : "") + hex.substr(4 * k, 4);
            break;
          default:
            shown = hex;
        }
        static const char* const words[] = {
            "HWaddr ", "link/ether ", "ether ", "address: ", "MAC=", "lladdr ", "MAC Address : "};
        const bool bare = notation == 3;
        bool letter = false;
        for (char c : hex) letter = letter || std::isalpha(static_cast<unsigned char>(c));
        std::string prefix = bare || !letter || context < 7 ? words[context % 7] : "";
        return Planted{prefix + shown, {shown}};
      },
      rc::gen::container<std::vector<int>>(6, rc::gen::inRange(0, 256)), rc::gen::inRange(0, 4),
      rc::gen::arbitrary<bool>(), rc::gen::inRange(0, 14));
}

// An address octet that is no documentation, loopback or broadcast range.
rc::Gen<std::string> dashed_private_address() {
  return rc::gen::apply(
      [](int net, int b, int c, int d) {
        static const char* const first[] = {"10", "172", "100", "54", "34"};
        return std::string(first[net]) + "-" + std::to_string(b) + "-" + std::to_string(c) + "-" +
               std::to_string(d);
      },
      rc::gen::inRange(0, 5), rc::gen::inRange(0, 256), rc::gen::inRange(0, 256),
      rc::gen::inRange(1, 255));
}

// Cloud-internal DNS names: AWS (ec2.internal, REGION.compute.internal, and
// ip-A-B-C-D alone), GCE (INSTANCE.ZONE.c.PROJECT.internal), Azure
// (NAME.ID.xx.internal.cloudapp.net).
rc::Gen<Planted> cloud_name() {
  return rc::gen::apply(
      [](std::string address, std::string name, std::string project, int kind, bool upper) {
        name += "7";
        project += "-42";
        Planted p;
        switch (kind) {
          case 0:
            p = {"ip-" + address + ".ec2.internal", {address}};
            break;
          case 1:
            p = {"ip-" + address + ".us-west-2.compute.internal", {address}};
            break;
          case 2:
            p = {"ip-" + address, {address}};
            break;
          case 3:
            p = {name + ".us-central1-a.c." + project + ".internal", {name, project}};
            break;
          case 4:
            p = {name + "." + project + ".bx.internal.cloudapp.net", {name, project}};
            break;
          default:
            p = {address + ".default.pod.cluster.local", {address}};
        }
        if (upper)
          for (char& c : p.text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        return p;
      },
      dashed_private_address(), letters(4, 9), letters(3, 8), rc::gen::inRange(0, 6),
      rc::gen::arbitrary<bool>());
}

// A Deployment's pod name: NAME-HASH-XXXXX in Kubernetes' alphabet.
rc::Gen<Planted> pod_name() {
  auto k8s = rc::gen::elementOf(std::string("bcdfghjklmnpqrstvwxz2456789"));
  return rc::gen::apply(
      [](std::string name, std::string tail, std::string hash, std::string suffix, bool two) {
        std::string pod = name + (two ? "-" + tail : "") + "-" + hash + "-" + suffix;
        return Planted{pod, {pod}};
      },
      letters(3, 10), letters(2, 6),
      rc::gen::mapcat(
          rc::gen::inRange(6, 11),
          [k8s](int n) { return rc::gen::container<std::string>(std::size_t(n), k8s); }),
      rc::gen::container<std::string>(5, k8s), rc::gen::arbitrary<bool>());
}

// The hostname in another case, whole or its first label.
std::string recase(const std::string& s, int how) {
  std::string out = s;
  for (std::size_t k = 0; k < out.size(); ++k) {
    bool up = how == 0 || (how == 1 && k == 0) || (how == 2 && k % 2 == 1);
    if (up) out[k] = static_cast<char>(std::toupper(static_cast<unsigned char>(out[k])));
  }
  return out;
}

struct Case {
  Snapshot snapshot;
  std::vector<std::string> secrets;  // substrings
  std::vector<std::string> words;    // whole words
};

rc::Gen<Case> planted_case() {
  return rc::gen::apply(
      [](std::vector<std::pair<Planted, std::string>> planted, std::string host, std::string domain,
         int host_case, std::string user, std::string tail) {
        host += "17";
        Case c;
        c.snapshot.facts.hostname = host + (domain.empty() ? "" : "." + domain + ".example.org");
        c.snapshot.env["USER"] = user;
        c.snapshot.env["HOME"] = "/home/" + user;
        std::string text = tail;
        for (const auto& [p, around] : planted) {
          text += "\n" + around + " " + p.text + " " + around + "\n";
          c.secrets.insert(c.secrets.end(), p.secrets.begin(), p.secrets.end());
        }
        // The hostname in another case, and the user's name as a word and in a path.
        text += "Connected to " + recase(host, host_case) + " as " + user + "\n";
        text += "owner " + user + " /home/" + user + "/.cache\n" + tail;
        c.words = {host, user};
        ToolEntry t;
        t.argv = {"tool"};
        t.run.out = text;
        c.snapshot.tools[t.argv] = t;
        c.snapshot.files["/var/log/probe.log"] = FileEntry::of_content(text);
        return c;
      },
      // Up to 12 identifiers in a case, each with up to 10 words around it:
      // sizes that keep 1,000 cases to a few seconds.
      rc::gen::resize(
          12, rc::gen::container<std::vector<std::pair<Planted, std::string>>>(rc::gen::pair(
                  rc::gen::oneOf(mac(), cloud_name(), pod_name()), rc::gen::resize(10, filler())))),
      letters(4, 8), rc::gen::oneOf(rc::gen::just(std::string()), letters(3, 6)),
      rc::gen::inRange(0, 3), rc::gen::suchThat(letters(4, 8), is_no_filler_word), filler());
}

RC_GTEST_PROP(RedactionClasses, NoIdentifierOfAnyClassSurvives, ()) {
  Case c = *planted_case();
  Snapshot s = c.snapshot;
  redact(s);
  for (const std::string* out :
       {&s.tools.begin()->second.run.out, &s.files.begin()->second.bytes}) {
    for (const auto& secret : c.secrets)
      RC_ASSERT(lower(*out).find(lower(secret)) == std::string::npos);
    for (const auto& w : c.words) RC_ASSERT(!has_word(*out, w));
  }
}

RC_GTEST_PROP(RedactionClasses, RedactingTwiceChangesNothing, ()) {
  Snapshot s = (*planted_case()).snapshot;
  redact(s);
  Snapshot again = s;
  redact(again);
  RC_ASSERT(again == s);
}

// No false positives: text of none of the classes, with a hostname and a
// user that it does not hold, comes out as it went in.
RC_GTEST_PROP(RedactionClasses, TextWithoutIdentifiersIsKept, ()) {
  const std::string text = *filler();
  Snapshot s;
  s.facts.hostname = "gpunode17.cluster.example.org";
  s.env["USER"] = "alice";
  ToolEntry t;
  t.argv = {"tool"};
  t.run.out = text;
  s.tools[t.argv] = t;
  redact(s);
  RC_ASSERT(s.tools.begin()->second.run.out == text);
}

}  // namespace
}  // namespace hwaccel
