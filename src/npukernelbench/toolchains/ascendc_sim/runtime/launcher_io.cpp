// launcher_io.cpp -- the launcher's request and result I/O: request.txt read and checked, result.json
// written (fields as they become known, the kernel's warnings and log), the .bin files read and written,
// the kernel's warnings, violations and printf log (runtime.h). Part of the ascendc-sim clean-room
// simulator (launcher_internal.h lists the launcher's files).
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "launcher_internal.h"
#include "soc_state.h"

namespace npukb {
namespace launcher {

std::string g_out_dir = ".";
std::string g_log;
bool g_log_truncated = false;
std::mutex g_log_mutex;

// ---------------------------------------------------------------------------------------------
// JSON output

std::string json_str(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

std::string json_num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6f", v);
  return buf;
}

// Fields written into result.json as they become known (insertion order kept).
std::vector<std::pair<std::string, std::string>> g_result;

void result_set(const std::string& key, const std::string& raw_json) {
  for (auto& kv : g_result) {
    if (kv.first == key) {
      kv.second = raw_json;
      return;
    }
  }
  g_result.emplace_back(key, raw_json);
}

// Kernel warnings (npukb::warning): one per source location, at most kMaxWarnings.
std::mutex g_warn_mutex;
std::vector<std::string> g_warnings;
std::vector<std::string> g_warned_at;

void write_result() {
  std::string text = "{";
  bool first = true;
  for (auto& kv : g_result) {
    text += (first ? "" : ",\n ") + json_str(kv.first) + ": " + kv.second;
    first = false;
  }
  {
    std::lock_guard<std::mutex> lk(g_warn_mutex);
    std::string list = "[";
    for (const auto& w : g_warnings) list += (list.size() > 1 ? ", " : "") + json_str(w);
    text += std::string(first ? "" : ",\n ") + "\"kernel_warnings\": " + list + "]";
    first = false;
  }
  {
    std::lock_guard<std::mutex> lk(g_log_mutex);
    text += std::string(first ? "" : ",\n ") + "\"log\": " + json_str(g_log) +
            ",\n \"log_truncated\": " + (g_log_truncated ? "true" : "false");
  }
  text += "}\n";
  std::string path = g_out_dir + "/result.json";
  std::string tmp = path + ".tmp";
  FILE* f = std::fopen(tmp.c_str(), "wb");
  if (f == nullptr) {
    std::fprintf(stderr, "npukb launcher: cannot write %s: %s\n", tmp.c_str(), std::strerror(errno));
    return;
  }
  std::fwrite(text.data(), 1, text.size(), f);
  std::fclose(f);
  std::rename(tmp.c_str(), path.c_str());
}

bool g_infer_child = false;             // the InferShape helper process: it reports through its pipe only

[[noreturn]] void fail(int code, const std::string& status, const std::string& message) {
  if (g_infer_child) _exit(0);          // the parent meets the same problem and reports it
  result_set("status", json_str(status));
  result_set("message", json_str(message));
  write_result();
  std::fflush(stdout);
  std::fflush(stderr);
  _exit(code);
}

[[noreturn]] void launch_error(const std::string& message) { fail(kExitLaunch, "launch_error", message); }
[[noreturn]] void request_error(const std::string& message) { fail(kExitRequest, "request_error", message); }
// ---------------------------------------------------------------------------------------------
// Request

struct DtypeInfo {
  const char* ge_name;
  ge::DataType ge;
};

const DtypeInfo kDtypes[] = {
    {"DT_FLOAT", ge::DT_FLOAT},     {"DT_FLOAT16", ge::DT_FLOAT16},   {"DT_BF16", ge::DT_BF16},
    {"DT_INT8", ge::DT_INT8},       {"DT_UINT8", ge::DT_UINT8},       {"DT_INT16", ge::DT_INT16},
    {"DT_UINT16", ge::DT_UINT16},   {"DT_INT32", ge::DT_INT32},       {"DT_UINT32", ge::DT_UINT32},
    {"DT_INT64", ge::DT_INT64},     {"DT_UINT64", ge::DT_UINT64},     {"DT_DOUBLE", ge::DT_DOUBLE},
    {"DT_BOOL", ge::DT_BOOL},       {"DT_COMPLEX64", ge::DT_COMPLEX64}, {"DT_COMPLEX128", ge::DT_COMPLEX128},
};

ge::DataType parse_ge(const std::string& name) {
  for (const auto& d : kDtypes) {
    if (name == d.ge_name) return d.ge;
  }
  request_error("unknown ge dtype " + name);
}

std::string ge_name(ge::DataType dt) {
  for (const auto& d : kDtypes) {
    if (d.ge == dt) return d.ge_name;
  }
  return "DT_" + std::to_string(static_cast<int>(dt));
}


std::string unhex(const std::string& hex) {
  std::string out;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) {
    out += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
  }
  return out;
}

Request read_request(const std::string& path) {
  std::ifstream in(path);
  if (!in) request_error("cannot read " + path);
  Request req;
  std::string line;
  ParamReq* current = nullptr;
  int lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    std::istringstream ss(line);
    std::string tag;
    if (!(ss >> tag) || tag[0] == '#') continue;
    try {
      if (tag == "npukb-request") {
        int version = 0;
        ss >> version;
        if (version != 1) request_error("request version " + std::to_string(version) + " not supported");
      } else if (tag == "op") {
        ss >> req.op;
      } else if (tag == "poison_seed") {
        ss >> req.poison_seed;
      } else if (tag == "soc") {
        // soc <SoC_version> <Short_SoC_version> <SocVersion value> <AI cube cores> <AI vector cores>
        std::string name, short_name;
        int version = -1, aic = 0, aiv = 0;
        if (!(ss >> name >> short_name >> version >> aic >> aiv) || !set_soc(name, short_name, version, aic, aiv)) {
          request_error("malformed soc line");
        }
      } else if (tag == "param") {
        ParamReq p;
        std::string count;
        ss >> p.role >> p.name >> p.ptype >> p.dtype;
        std::string ge;
        ss >> ge >> p.itemsize >> count >> p.alias;
        p.ge = parse_ge(ge);
        if (p.alias == "-") p.alias.clear();
        p.absent = count == "absent";
        req.params.push_back(p);
        current = &req.params.back();
      } else if (tag == "tensor") {
        if (current == nullptr) request_error("tensor line before any param");
        TensorReq t;
        std::size_t rank = 0;
        ss >> rank;
        t.shape.resize(rank);
        for (auto& d : t.shape) ss >> d;
        ss >> t.file;
        current->tensors.push_back(t);
      } else if (tag == "attr") {
        AttrReq a;
        ss >> a.name >> a.type;
        std::string v;
        while (ss >> v) a.values.push_back(v);
        req.attrs.push_back(a);
      } else if (tag == "end") {
        break;
      } else {
        request_error("line " + std::to_string(lineno) + ": unknown tag " + tag);
      }
    } catch (const std::exception& e) {
      request_error("line " + std::to_string(lineno) + ": " + e.what());
    }
    if (!ss && !ss.eof()) request_error("line " + std::to_string(lineno) + ": malformed: " + line);
  }
  return req;
}

void read_file_into(const std::string& path, std::uint8_t* dst, std::size_t bytes) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) request_error("cannot open " + path);
  std::size_t got = bytes ? std::fread(dst, 1, bytes, f) : 0;
  std::fclose(f);
  if (got != bytes) request_error(path + ": expected " + std::to_string(bytes) + " bytes, got " + std::to_string(got));
}

bool file_holds(const std::string& path, const std::uint8_t* data, std::size_t bytes) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) request_error("cannot open " + path);
  std::vector<std::uint8_t> chunk(std::min<std::size_t>(bytes, std::size_t{1} << 20));
  bool same = true;
  for (std::size_t done = 0; same && done < bytes;) {
    const std::size_t n = std::min(chunk.size(), bytes - done);
    same = std::fread(chunk.data(), 1, n, f) == n && std::memcmp(chunk.data(), data + done, n) == 0;
    done += n;
  }
  std::fclose(f);
  return same;
}

void write_file(const std::string& path, const std::uint8_t* src, std::size_t bytes) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) request_error("cannot write " + path);
  if (bytes) std::fwrite(src, 1, bytes, f);
  std::fclose(f);
}

}  // namespace launcher

// ---------------------------------------------------------------------------------------------
// runtime.h

using namespace launcher;

void warning(const char* api, const std::string& what, const char* file, int line) {
  const int b = g_running_block.load();
  const int idx = b >= 0 && b < static_cast<int>(g_blocks.size()) ? g_blocks[b].state->block_idx : b;
  // Walking the stack costs microseconds and a warning may come from a hot loop: each return address
  // into the caller is walked from a bounded number of times (an inlined API has one per call site).
  constexpr int kWalksPerReturnAddress = 64;
  static std::map<const void*, int> walks;
  {
    std::lock_guard<std::mutex> lk(g_warn_mutex);
    if (g_warnings.size() >= kMaxWarnings) return;
    if (file == nullptr && ++walks[__builtin_return_address(0)] > kWalksPerReturnAddress) return;
  }
  const std::string loc = where(file, line);
  std::lock_guard<std::mutex> lk(g_warn_mutex);
  const std::string key = loc.empty() ? std::string(api ? api : "") + what : loc;
  for (const auto& seen : g_warned_at) {
    if (seen == key) return;
  }
  if (g_warnings.size() >= kMaxWarnings) return;
  g_warned_at.push_back(key);
  g_warnings.push_back(std::string(api ? api : "") + ": " + what + " (block " + std::to_string(idx) +
                       (loc.empty() ? "" : ", " + loc) + ")");
}

[[noreturn]] void violation(const char* api, const std::string& what, const char* file, int line) {
  static std::atomic<bool> once{false};
  if (once.exchange(true)) {
    for (;;) pause();
  }
  int b = g_running_block.load();
  const std::string loc = where(file, line);
  const int idx = b >= 0 && b < static_cast<int>(g_blocks.size()) ? g_blocks[b].state->block_idx : b;
  const char* core = b >= 0 && b < static_cast<int>(g_blocks.size()) && g_blocks[b].state->core_type == CORE_AIC ? "AIC" : "AIV";
  result_set("violation", "{\"api\": " + json_str(api ? api : "") + ", \"message\": " + json_str(what) +
                              ", \"block\": " + std::to_string(idx) + ", \"core\": " + json_str(core) +
                              ", \"file\": " + json_str(file ? file : "") + ", \"line\": " + std::to_string(line) +
                              (file == nullptr ? ", \"at\": " + json_str(loc) : std::string()) + "}");
  std::string message = std::string(api ? api : "") + ": " + what;
  if (b >= 0) message += " (" + block_name(b) + (loc.empty() ? "" : ", " + loc) + ")";
  else if (!loc.empty()) message += " (" + loc + ")";
  fail(kExitViolation, "violation", message);
}
void kernel_log(const std::string& text) {
  std::lock_guard<std::mutex> lk(g_log_mutex);
  if (g_log.size() >= kLogLimit) {
    g_log_truncated = true;
    return;
  }
  int b = g_running_block.load();
  std::string line = (b >= 0 ? "[block " + std::to_string(b) + "] " : std::string()) + text;
  if (g_log.size() + line.size() > kLogLimit) {
    line.resize(kLogLimit - g_log.size());
    g_log_truncated = true;
  }
  g_log += line;
}
}  // namespace npukb
