#include "cli/common/cli_docs.h"

#include <iostream>
#include <vector>

#include "cli/common/exit_code_table.h"
#include "cli/common/exit_codes.h"
#include "src/registry/detection.h"

namespace hwaccel::cli {

namespace {

struct Node {
  std::string path;  // "detect", "export nfd"; empty for the program itself
  const CLI::App* app;
};

// The program and every subcommand, depth first, in definition order.
void collect(const CLI::App* app, const std::string& path, std::vector<Node>& out) {
  out.push_back({path, app});
  for (const CLI::App* sub : app->get_subcommands([](const CLI::App*) { return true; }))
    collect(sub, path.empty() ? sub->get_name() : path + " " + sub->get_name(), out);
}

std::vector<const CLI::App*> subcommands(const CLI::App* app) {
  return app->get_subcommands([](const CLI::App*) { return true; });
}

bool hidden(const CLI::Option* o) {
  return o->get_group().empty();
}

bool takes_value(const CLI::Option* o) {
  return o->get_expected_max() > 0 && o->get_type_size_max() > 0;
}

std::vector<std::string> names(const CLI::Option* o) {
  std::vector<std::string> out;
  for (const auto& s : o->get_snames()) out.push_back("-" + s);
  for (const auto& l : o->get_lnames()) out.push_back("--" + l);
  return out;
}

// "TEXT:{text,json,yaml}" -> {"text","json","yaml"}
std::vector<std::string> choices(const CLI::Option* o) {
  std::vector<std::string> out;
  std::string type = o->get_type_name();
  auto open = type.find('{'), close = type.find('}');
  if (open == std::string::npos || close == std::string::npos || close < open) return out;
  std::string list = type.substr(open + 1, close - open - 1);
  std::size_t start = 0;
  while (start <= list.size()) {
    auto comma = list.find(',', start);
    if (comma == std::string::npos) comma = list.size();
    std::string item = list.substr(start, comma - start);
    while (!item.empty() && item.front() == ' ') item.erase(item.begin());
    if (!item.empty()) out.push_back(item);
    start = comma + 1;
  }
  return out;
}

bool wants_directory(const CLI::Option* o) {
  return o->get_type_name().find("DIR") != std::string::npos ||
         o->get_description().find("DIR") != std::string::npos;
}

bool wants_file(const CLI::Option* o) {
  return o->get_description().find("FILE") != std::string::npos;
}

// Words a value can take: the option's own choices, or the backend names for
// --only and --backend.
std::vector<std::string> value_words(const CLI::Option* o) {
  auto c = choices(o);
  if (!c.empty()) return c;
  for (const auto& l : o->get_lnames())
    if (l == "only" || l == "backend") return reported_backend_names();
  return {};
}

std::string strip_program_prefix(const std::string& description, const std::string& program) {
  const std::string prefix = program + ": ";
  return description.rfind(prefix, 0) == 0 ? description.substr(prefix.size()) : description;
}

// roff: backslashes, hyphens and a leading dot or quote are special.
std::string roff(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\\')
      out += "\\e";
    else if (c == '-')
      out += "\\-";
    else
      out += c;
  }
  if (!out.empty() && (out[0] == '.' || out[0] == '\'')) out = "\\&" + out;
  return out;
}

std::string upper(std::string s) {
  for (char& c : s) c = char(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

std::string value_name(const CLI::Option* o) {
  auto c = choices(o);
  if (!c.empty()) {
    std::string out;
    for (const auto& x : c) out += (out.empty() ? "" : "|") + x;
    return out;
  }
  std::string type = o->get_type_name();
  auto colon = type.find(':');
  if (colon != std::string::npos) type = type.substr(0, colon);
  return type.empty() ? "VALUE" : type;
}

// Words for a shell: 'single quoted', with embedded quotes closed and reopened.
std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// A zsh _arguments description: no brackets, no quotes, no colons.
std::string zsh_text(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '[' || c == '(')
      out += '(';
    else if (c == ']' || c == ')')
      out += ')';
    else if (c == '\'')
      out += "’";
    else if (c == ':')
      out += " -";
    else if (c == '\\')
      out += '/';
    else
      out += c;
  }
  return out;
}

std::string function_name(const std::string& program, const std::string& path) {
  std::string out = "_" + program + (path.empty() ? "" : "_");
  for (char c : path) out += (c == ' ' || c == '-') ? '_' : c;
  return out;
}

}  // namespace

std::string render_man_page(const CLI::App& app, const std::string& program) {
  std::string out;
  out += ".\\\" Generated from the CLI definitions by `" + program +
         " --generate-man`; do not edit.\n";
  out += ".TH " + upper(program) + " 1 \"\" \"" + program + " " + HWACCEL_VERSION +
         "\" \"User Commands\"\n";
  out += ".SH NAME\n" + program + " \\- " +
         roff(strip_program_prefix(app.get_description(), program)) + "\n";
  out += ".SH SYNOPSIS\n.B " + program + "\n\\fICOMMAND\\fR [\\fIOPTIONS\\fR]\n.br\n.B " + program +
         "\n\\-\\-version | \\-\\-help\n";
  out +=
      ".SH DESCRIPTION\nEvery command prints one document on standard output (text, or "
      "JSON with \\fB\\-\\-json\\fR); warnings and errors go to standard error. Text is "
      "coloured only on a terminal, and never when \\fBNO_COLOR\\fR is set.\n";
  out += ".SH COMMANDS\n";
  std::vector<Node> nodes;
  collect(&app, "", nodes);
  for (const auto& node : nodes) {
    if (node.path.empty()) continue;
    std::string usage = program + " " + node.path;
    for (const CLI::Option* o : node.app->get_options())
      if (o->get_positional()) usage += " [" + upper(o->get_name(true)) + "]";
    if (!subcommands(node.app).empty()) usage += " COMMAND";
    usage += " [OPTIONS]";
    out += ".SS \"" + roff(usage) + "\"\n" + roff(node.app->get_description()) + "\n";
    for (const CLI::Option* o : node.app->get_options()) {
      if (hidden(o)) continue;
      std::string head;
      if (o->get_positional()) {
        head = "\\fI" + roff(upper(o->get_name(true))) + "\\fR";
      } else {
        for (const auto& n : names(o))
          head += (head.empty() ? "" : ", ") + ("\\fB" + roff(n) + "\\fR");
        if (takes_value(o)) head += " \\fI" + roff(value_name(o)) + "\\fR";
      }
      out += ".TP\n" + head + "\n" + roff(o->get_description()) + "\n";
    }
  }
  out += ".SH EXIT STATUS\n";
  for (const auto& e : exit_code_table())
    out += ".TP\n.B " + std::to_string(e.code) + "\n" + roff(e.meaning) + "\n";
  out +=
      ".SH ENVIRONMENT\n"
      ".TP\n.B NO_COLOR\nWhen set to a non\\-empty value, text is never coloured.\n"
      ".TP\n.B HWACCEL_RESERVE_BYTES\nMemory that must stay free on a device (default 3584 "
      "MiB).\n"
      ".TP\n.B XDG_CACHE_HOME\nWhere \\fB\\-\\-cache\\fR keeps the last detection "
      "(default ~/.cache).\n";
  out += ".SH SEE ALSO\n";
  out += program == "hwaccel" ? ".BR hwsim (1)\n" : ".BR hwaccel (1)\n";
  return out;
}

std::string render_bash_completion(const CLI::App& app, const std::string& program) {
  std::vector<Node> nodes;
  collect(&app, "", nodes);
  std::string fn = function_name(program, "");
  std::string out = "# bash completion for " + program + "; generated by `" + program +
                    " --generate-completion bash`, do not edit.\n";
  out += fn + "() {\n";
  out += "  local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"${COMP_WORDS[COMP_CWORD-1]}\"\n";
  out += "  local path=\"\" i\n";
  out += "  for ((i = 1; i < COMP_CWORD; i++)); do\n";
  out += "    case \"${path:+$path }${COMP_WORDS[i]}\" in\n";
  std::string all_paths;
  for (const auto& n : nodes)
    if (!n.path.empty()) all_paths += (all_paths.empty() ? "" : "|") + shell_quote(n.path);
  out += "      " + all_paths + ") path=\"${path:+$path }${COMP_WORDS[i]}\" ;;\n";
  out += "    esac\n  done\n";
  // Values of options: choices, directories, else files.
  out += "  case \"$path $prev\" in\n";
  for (const auto& n : nodes)
    for (const CLI::Option* o : n.app->get_options()) {
      if (hidden(o) || o->get_positional() || !takes_value(o)) continue;
      std::string pattern;
      for (const auto& name : names(o))
        pattern += (pattern.empty() ? "" : "|") + shell_quote(n.path + " " + name);
      auto c = value_words(o);
      std::string words;
      for (const auto& x : c) words += (words.empty() ? "" : " ") + x;
      // A number or a size has nothing to offer: complete nothing, not file names.
      std::string action = !c.empty() ? "compgen -W " + shell_quote(words) + " -- \"$cur\""
                           : wants_directory(o) ? "compgen -d -- \"$cur\""
                           : wants_file(o)      ? "compgen -f -- \"$cur\""
                                                : "true";
      out += "    " + pattern + ") COMPREPLY=($(" + action + ")); return ;;\n";
    }
  out += "  esac\n";
  out += "  case \"$path\" in\n";
  for (const auto& n : nodes) {
    std::string words;
    for (const CLI::App* sub : subcommands(n.app))
      words += (words.empty() ? "" : " ") + sub->get_name();
    for (const CLI::Option* o : n.app->get_options())
      if (!hidden(o) && !o->get_positional())
        for (const auto& name : names(o)) words += (words.empty() ? "" : " ") + name;
    bool files = false;
    for (const CLI::Option* o : n.app->get_options()) files |= o->get_positional();
    out += "    " + shell_quote(n.path) + ") COMPREPLY=($(compgen -W " + shell_quote(words) +
           " -- \"$cur\")" + (files ? " $(compgen -f -- \"$cur\")" : "") + ") ;;\n";
  }
  out += "  esac\n}\ncomplete -F " + fn + " " + program + "\n";
  return out;
}

std::string render_zsh_completion(const CLI::App& app, const std::string& program) {
  std::vector<Node> nodes;
  collect(&app, "", nodes);
  std::string out = "#compdef " + program + "\n# zsh completion for " + program +
                    "; generated by `" + program + " --generate-completion zsh`, do not edit.\n";
  for (auto it = nodes.rbegin(); it != nodes.rend(); ++it) {
    const auto& n = *it;
    auto subs = subcommands(n.app);
    out += "\n" + function_name(program, n.path) + "() {\n";
    out += "  local curcontext=\"$curcontext\" state line\n";
    out += "  _arguments -C";
    for (const CLI::Option* o : n.app->get_options()) {
      if (hidden(o)) continue;
      std::string desc = "[" + zsh_text(o->get_description()) + "]";
      std::string value;
      if (o->get_positional()) {
        out += " \\\n    " + shell_quote(":" + o->get_name(true) + ":_files");
        continue;
      }
      if (takes_value(o)) {
        auto c = value_words(o);
        std::string words;
        for (const auto& x : c) words += (words.empty() ? "" : " ") + x;
        value = ":" + zsh_text(value_name(o)) + ":" +
                (!c.empty()           ? "(" + words + ")"
                 : wants_directory(o) ? "_files -/"
                 : wants_file(o)      ? "_files"
                                      : " ");
      }
      auto ns = names(o);
      if (ns.size() == 1) {
        out += " \\\n    " + shell_quote(ns[0] + desc + value);
      } else {
        std::string group = "(";
        std::string brace = "{";
        for (std::size_t i = 0; i < ns.size(); ++i) {
          group += (i ? " " : "") + ns[i];
          brace += (i ? "," : "") + ns[i];
        }
        out += " \\\n    " + shell_quote(group + ")") + brace + "}" + shell_quote(desc + value);
      }
    }
    if (!subs.empty()) out += " \\\n    '1: :->command' \\\n    '*:: :->args'";
    out += "\n";
    if (!subs.empty()) {
      out += "  case $state in\n    command)\n      local -a commands\n      commands=(";
      for (const CLI::App* sub : subs)
        out += "\n        " + shell_quote(sub->get_name() + ":" + zsh_text(sub->get_description()));
      out +=
          "\n      )\n      _describe 'command' commands ;;\n    args)\n      case $line[1] in\n";
      for (const CLI::App* sub : subs)
        out += "        " + sub->get_name() + ") " +
               function_name(program,
                             n.path.empty() ? sub->get_name() : n.path + " " + sub->get_name()) +
               " ;;\n";
      out += "      esac ;;\n  esac\n";
    }
    out += "}\n";
  }
  out += "\n" + function_name(program, "") + " \"$@\"\n";
  return out;
}

bool handle_generators(const CLI::App& app, const std::string& program, int argc, char** argv,
                       int& exit_code) {
  if (argc < 2) return false;
  std::string first = argv[1];
  if (first == "--generate-man") {
    std::cout << render_man_page(app, program);
    exit_code = kExitOk;
    return true;
  }
  if (first == "--generate-completion") {
    std::string shell = argc > 2 ? argv[2] : "";
    if (shell == "bash") {
      std::cout << render_bash_completion(app, program);
    } else if (shell == "zsh") {
      std::cout << render_zsh_completion(app, program);
    } else {
      std::cerr << "error: --generate-completion: expected bash or zsh, got \"" << shell << "\"\n";
      exit_code = kExitUsage;
      return true;
    }
    exit_code = kExitOk;
    return true;
  }
  return false;
}

}  // namespace hwaccel::cli
