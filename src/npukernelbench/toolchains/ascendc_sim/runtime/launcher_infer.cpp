// launcher_infer.cpp -- InferShape / InferDataType as graph mode would run them, compared with the
// task's outputs in a helper process forked before the boundary (warnings, never failures). Part of
// the ascendc-sim clean-room simulator (launcher_internal.h lists the launcher's files).
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "launcher_internal.h"

namespace npukb {
namespace launcher {

// ---------------------------------------------------------------------------------------------
// InferShape / InferDataType against the task's outputs

// "y" for a plain output, "y[1]" for the second tensor of a list output; by flattened output index.
std::vector<std::string> output_labels(const std::vector<ParamReq>& params) {
  std::vector<std::string> labels;
  for (const auto& p : params) {
    if (p.role != "output" || p.absent) continue;
    for (std::size_t j = 0; j < p.tensors.size(); ++j) {
      labels.push_back(p.tensors.size() > 1 || p.ptype == "DYNAMIC" ? p.name + "[" + std::to_string(j) + "]" : p.name);
    }
  }
  return labels;
}

std::string shape_text(const gert::Shape& s) {
  std::string out = "[";
  for (std::size_t i = 0; i < s.GetDimNum(); ++i) out += (i ? ", " : "") + std::to_string(s.GetDim(i));
  return out + "]";
}

// An inferred dim of -1 (unknown) matches any size; an inferred shape [-2] (unknown rank) any shape.
bool shape_agrees(const gert::Shape& inferred, const gert::Shape& actual) {
  if (inferred.GetDimNum() == 1 && inferred.GetDim(0) == ge::UNKNOWN_DIM_NUM) return true;
  if (inferred.GetDimNum() != actual.GetDimNum()) return false;
  for (std::size_t i = 0; i < inferred.GetDimNum(); ++i) {
    if (inferred.GetDim(i) != ge::UNKNOWN_DIM && inferred.GetDim(i) != actual.GetDim(i)) return false;
  }
  return true;
}

// Runs the op's InferShape with every output shape empty and compares each output it describes with
// the shape of the tensor the task passes. "" when they agree, else what disagrees.
std::string infer_shape_disagreement(ops::InferShapeKernelFunc fn, const gert::NpukbIoTable& io,
                                     const Request& req) {
  gert::NpukbIoTable infer = io;
  for (auto& t : infer.outputs) t.MutableShape() = gert::StorageShape();
  gert::InferShapeContext ctx(&infer);
  ge::graphStatus status;
  try {
    status = fn(&ctx);
  } catch (const std::exception& e) {
    return std::string("InferShape of op " + req.op + " threw an exception: ") + e.what();
  } catch (...) {
    return "InferShape of op " + req.op + " threw an exception";
  }
  if (status != ge::GRAPH_SUCCESS) {
    return "InferShape of op " + req.op + " returned failure (status " + std::to_string(status) + ")";
  }
  std::vector<std::string> labels = output_labels(req.params);
  for (std::size_t i = 0; i < io.outputs.size() && i < labels.size(); ++i) {
    const gert::Shape& inferred = infer.outputs[i].GetOriginShape();
    const gert::Shape& actual = io.outputs[i].GetStorageShape();
    if (!shape_agrees(inferred, actual)) {
      return "InferShape of op " + req.op + " gives output '" + labels[i] + "' the shape " + shape_text(inferred) +
             " but the task's output '" + labels[i] + "' has shape " + shape_text(actual);
    }
  }
  return "";
}

// Runs the op's InferDataType with every output dtype DT_UNDEFINED and compares each dtype it sets
// with the task's. "" when they agree, else what disagrees.
std::string infer_datatype_disagreement(ops::InferDataTypeKernelFunc fn, const gert::NpukbIoTable& io,
                                        const Request& req) {
  gert::NpukbIoTable infer = io;
  for (auto& t : infer.outputs) t.NpukbDesc().SetDataType(ge::DT_UNDEFINED);
  gert::InferDataTypeContext ctx(&infer);
  ge::graphStatus status;
  try {
    status = fn(&ctx);
  } catch (const std::exception& e) {
    return std::string("InferDataType of op " + req.op + " threw an exception: ") + e.what();
  } catch (...) {
    return "InferDataType of op " + req.op + " threw an exception";
  }
  if (status != ge::GRAPH_SUCCESS) {
    return "InferDataType of op " + req.op + " returned failure (status " + std::to_string(status) + ")";
  }
  std::vector<std::string> labels = output_labels(req.params);
  for (std::size_t i = 0; i < io.outputs.size() && i < labels.size(); ++i) {
    ge::DataType inferred = infer.outputs[i].GetDataType();
    ge::DataType actual = io.outputs[i].GetDataType();
    if (inferred != ge::DT_UNDEFINED && inferred != actual) {
      return "InferDataType of op " + req.op + " gives output '" + labels[i] + "' the data type " + ge_name(inferred) +
             " but the task's output '" + labels[i] + "' is " + ge_name(actual);
    }
  }
  return "";
}

// InferShape and InferDataType as graph mode would run them, compared with the task's outputs. The
// single-operator (aclnn) path the benchmark calls does not run them (the caller allocates the
// outputs), so what they get wrong is a warning, not a failure; they run in a helper process, forked
// before the boundary went up and confined like the launcher (start_infer_child), so that a crash, a
// hang or a side effect of theirs cannot touch the launch. One line per finding.
pid_t g_infer_pid = -1;          // the helper; -1 when it could not be started
int g_infer_fd = -1;             // read end of its findings
constexpr int kInferLimitS = 10; // the helper's time: it dies of SIGALRM (set before it loads the candidate)

// The helper's side: what InferShape / InferDataType get wrong, one line each.
std::string infer_findings(ops::InferShapeKernelFunc shape_fn, ops::InferDataTypeKernelFunc dtype_fn,
                           const gert::NpukbIoTable& io, const Request& req) {
  std::string out;
  if (shape_fn != nullptr) out += infer_shape_disagreement(shape_fn, io, req) + "\n";
  if (dtype_fn != nullptr) out += infer_datatype_disagreement(dtype_fn, io, req) + "\n";
  return out;
}

// The launcher's side: the helper's findings (it reports nothing when the op has neither function).
std::vector<std::string> infer_warnings(ops::InferShapeKernelFunc shape_fn, ops::InferDataTypeKernelFunc dtype_fn,
                                        const Request& req) {
  std::vector<std::string> warnings;
  if (g_infer_pid < 0) {
    if (shape_fn != nullptr || dtype_fn != nullptr) {
      warnings.push_back("InferShape/InferDataType not checked: cannot start the helper process");
    }
    return warnings;
  }
  std::string text;
  bool timed_out = false;
  for (;;) {
    struct pollfd pfd {g_infer_fd, POLLIN, 0};
    int ready = poll(&pfd, 1, (kInferLimitS + 1) * 1000);
    if (ready <= 0) {
      timed_out = ready == 0;
      if (ready < 0 && errno == EINTR) continue;
      break;
    }
    char buf[4096];
    ssize_t n = read(g_infer_fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(buf, static_cast<std::size_t>(n));
  }
  close(g_infer_fd);
  g_infer_fd = -1;
  // The launcher may signal no other process (not even its helper, whose pid could be reused once it
  // is reaped): a helper that outlives its alarm is left to the sandbox, which kills it with the run.
  int status = 0;
  while (waitpid(g_infer_pid, &status, timed_out ? WNOHANG : 0) < 0 && errno == EINTR) {
  }
  g_infer_pid = -1;
  if (shape_fn == nullptr && dtype_fn == nullptr) return warnings;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty()) warnings.push_back(line);
  }
  if (timed_out) {
    warnings.push_back("InferShape/InferDataType of op " + req.op + " did not finish within " +
                       std::to_string(kInferLimitS) + " s");
  } else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
    warnings.push_back("InferShape/InferDataType of op " + req.op + " did not finish within " +
                       std::to_string(kInferLimitS) + " s");
  } else if (WIFSIGNALED(status)) {
    warnings.push_back("InferShape/InferDataType of op " + req.op + " crashed (signal " +
                       std::to_string(WTERMSIG(status)) + ")");
  }
  return warnings;
}
// The InferShape helper: forked before the boundary (the launcher can create no process after it),
// it confines itself like the launcher, loads the candidate and runs the launch's host steps up to
// InferShape/InferDataType, then writes its findings to the pipe and ends. A problem in a step ends
// it quietly (the launcher meets the same problem and reports it).
void start_infer_child(const std::string& dir, const std::string& so_path, const std::function<std::string()>& steps) {
  int fds[2];
  if (pipe(fds) != 0) return;
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t parent = getpid();
  const pid_t child = fork();
  if (child < 0) {
    close(fds[0]);
    close(fds[1]);
    return;
  }
  if (child == 0) {
    g_infer_child = true;
    close(fds[0]);
    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    if (getppid() != parent) _exit(0);
    const int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (null >= 0) {
      dup2(null, 1);
      dup2(null, 2);
      close(null);
    }
    if (g_phase_fd >= 0) close(g_phase_fd);
    g_phase_fd = -1;
    if (g_census_fd >= 0) close(g_census_fd);
    g_census_fd = -1;
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) signal(sig, SIG_DFL);
    alarm(kInferLimitS);
    enter_boundary(dir, false, so_path, {fds[1]});
    load_candidate(so_path);
    const std::string out = steps();
    for (std::size_t done = 0; done < out.size();) {
      const ssize_t n = write(fds[1], out.data() + done, out.size() - done);
      if (n <= 0) break;
      done += static_cast<std::size_t>(n);
    }
    _exit(0);
  }
  close(fds[1]);
  g_infer_pid = child;
  g_infer_fd = fds[0];
}

}  // namespace launcher
}  // namespace npukb
