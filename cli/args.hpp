// Hand-written argument parsing for the `tropic` command: GNU-style `--name value` and
// `--name=value`, short aliases, positional arguments, and typed getters whose errors are
// usage errors (exit code 2), so a typo never turns into a silent default.
#pragma once

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace tropic::cli {

// Thrown for anything the user typed wrong; main() maps it to exit code 2.
class usage_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct option_spec {
  std::string name;  // long name without dashes, e.g. "source"
  char alias = 0;    // short form, e.g. 'o' for -o; 0 = none
  bool takes_value = false;
};

class parsed_args {
 public:
  parsed_args(const std::string& command, const std::vector<option_spec>& specs, int argc,
              char** argv, int first)
      : command_(command) {
    auto find_long = [&](const std::string& name) -> const option_spec* {
      for (const auto& s : specs)
        if (s.name == name) return &s;
      return nullptr;
    };
    auto find_short = [&](char c) -> const option_spec* {
      for (const auto& s : specs)
        if (s.alias != 0 && s.alias == c) return &s;
      return nullptr;
    };
    bool only_positionals = false;
    for (int i = first; i < argc; ++i) {
      std::string a = argv[i];
      if (only_positionals || a.size() < 2 || a[0] != '-' || is_number(a)) {
        positionals_.push_back(a);
        continue;
      }
      if (a == "--") {
        only_positionals = true;
        continue;
      }
      const option_spec* spec = nullptr;
      std::string value;
      bool has_inline_value = false;
      if (a[1] == '-') {
        std::string name = a.substr(2);
        auto eq = name.find('=');
        if (eq != std::string::npos) {
          value = name.substr(eq + 1);
          name = name.substr(0, eq);
          has_inline_value = true;
        }
        spec = find_long(name);
        if (!spec) throw usage_error("unknown option '--" + name + "'" + help_hint());
      } else {
        if (a.size() != 2) throw usage_error("unknown option '" + a + "'" + help_hint());
        spec = find_short(a[1]);
        if (!spec) throw usage_error("unknown option '" + a + "'" + help_hint());
      }
      if (spec->takes_value) {
        if (!has_inline_value) {
          if (i + 1 >= argc)
            throw usage_error("option '--" + spec->name + "' needs a value" + help_hint());
          value = argv[++i];
        }
      } else if (has_inline_value) {
        throw usage_error("option '--" + spec->name + "' takes no value" + help_hint());
      }
      if (values_.count(spec->name) && spec->takes_value && values_[spec->name] != value)
        throw usage_error("option '--" + spec->name + "' given twice with different values");
      values_[spec->name] = value;
    }
  }

  bool has(const std::string& name) const { return values_.count(name) != 0; }
  const std::vector<std::string>& positionals() const { return positionals_; }

  std::string get(const std::string& name, const std::string& fallback = "") const {
    auto it = values_.find(name);
    return it == values_.end() ? fallback : it->second;
  }

  std::uint64_t get_u64(const std::string& name, std::uint64_t fallback) const {
    auto it = values_.find(name);
    if (it == values_.end()) return fallback;
    return parse_u64(it->second, "--" + name);
  }

  double get_double(const std::string& name, double fallback) const {
    auto it = values_.find(name);
    if (it == values_.end()) return fallback;
    const std::string& s = it->second;
    if (s == "inf" || s == "infinity") return HUGE_VAL;
    errno = 0;
    char* end = nullptr;
    double v = std::strtod(s.c_str(), &end);
    if (s.empty() || *end != '\0' || errno == ERANGE)
      throw usage_error("--" + name + " expects a number, got '" + s + "'");
    return v;
  }

  static std::uint64_t parse_u64(const std::string& s, const std::string& what) {
    if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos)
      throw usage_error(what + " expects a non-negative integer, got '" + s + "'");
    errno = 0;
    unsigned long long v = std::strtoull(s.c_str(), nullptr, 10);
    if (errno == ERANGE) throw usage_error(what + " is too large: '" + s + "'");
    return v;
  }

  std::string help_hint() const { return " (see 'tropic " + command_ + " --help')"; }

 private:
  // "-1" is a value, not an option (e.g. a negative number the user typed by mistake).
  static bool is_number(const std::string& a) {
    return a.size() > 1 && a[0] == '-' &&
           a.find_first_not_of("0123456789.", 1) == std::string::npos;
  }

  std::string command_;
  std::map<std::string, std::string> values_;
  std::vector<std::string> positionals_;
};

}  // namespace tropic::cli
