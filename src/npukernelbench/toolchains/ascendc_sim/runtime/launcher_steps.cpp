// launcher_steps.cpp -- the host-API steps of `launcher run` over one Launch: the request, the OpDef,
// tensors and attributes, the host functions, TilingParse and TilingFunc, the cores, GM, the blocks,
// scheduling them and writing the outputs (launcher.cpp runs them in order). Part of the ascendc-sim
// clean-room simulator (launcher_internal.h lists the launcher's files).
#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "npukb_boundary.h"
#include "launcher_internal.h"

namespace npukb {
namespace launcher {

std::size_t tensor_bytes(const ParamReq& p, const TensorReq& t) {
  std::size_t n = 1;
  for (auto d : t.shape) {
    if (d < 0) request_error("negative dimension in " + p.name);
    n *= static_cast<std::size_t>(d);
  }
  return n * p.itemsize;
}

std::uint8_t* build_list_descriptor(ParamReq& p) {
  std::vector<std::uint64_t> words{0};
  for (auto& t : p.tensors) {
    words.push_back(static_cast<std::uint64_t>(t.shape.size()));
    for (auto d : t.shape) words.push_back(static_cast<std::uint64_t>(d));
  }
  words[0] = words.size() * sizeof(std::uint64_t);
  for (auto& t : p.tensors) words.push_back(reinterpret_cast<std::uintptr_t>(t.gm));
  std::uint8_t* gm = gm_alloc(words.size() * sizeof(std::uint64_t), p.name + " (tensor-list descriptor)");
  std::memcpy(gm, words.data(), words.size() * sizeof(std::uint64_t));
  return gm;
}

// Reads <dir>/request.txt and seeds the poison (before any candidate code is loaded); hands on req.
void Launch::parse_request() {
  g_out_dir = dir;
  g_page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  result_set("status", json_str("request_error"));
  g_phase = "request parsing";
  req = read_request(dir + "/request.txt");
  set_poison_seed(req.poison_seed);
}

// Checks that the loaded build has a kernel (not a describe build); hands on nothing.
void Launch::check_entries() {
  if (npukb_entry == nullptr && npukb_entry_aic == nullptr) {
    request_error("this build has no kernel entry (describe build)");
  }
}

// Instantiates the OpDef registered for the op type and checks the request's parameters against it;
// hands on def.
void Launch::check_opdef() {
  g_phase = "OpDef construction";
  auto& ops_reg = ops::NpukbOpRegistry();
  auto it = ops_reg.find(req.op);
  if (it == ops_reg.end()) {
    std::string known;
    for (auto& kv : ops_reg) known += (known.empty() ? "" : ", ") + kv.first;
    launch_error("no OpDef registered for op type '" + req.op + "': the host code must define class " + req.op +
                 " : public OpDef and call OP_ADD(" + req.op + ")" + (known.empty() ? "" : " (registered: " + known + ")"));
  }
  def.reset(it->second(req.op.c_str()));
  column = check_params(*def, req.params);
}

// Gives io one tensor (shape, dtype, size; no data) per present input and output instance and sets
// each tensor's byte size in req; hands on io and the sizes.
void Launch::describe_tensors() {
  io.node_name = req.op;
  io.node_type = req.op;
  for (auto& p : req.params) {
    auto& all = p.role == "input" ? io.inputs : io.outputs;
    auto& ir = p.role == "input" ? io.input_ir : io.output_ir;
    ir.emplace_back();
    if (p.absent) continue;
    for (auto& t : p.tensors) {
      t.bytes = tensor_bytes(p, t);
      gert::StorageShape shape;
      for (auto d : t.shape) {
        shape.MutableOriginShape().AppendDim(d);
        shape.MutableStorageShape().AppendDim(d);
      }
      ir.back().push_back(static_cast<int>(all.size()));
      all.emplace_back();
      all.back().NpukbSet(shape, p.ge, nullptr, t.bytes);
    }
  }
}

// Input data on the host (GetInputTensor(i)->GetData<T>()): as in CANN, only for inputs the OpDef
// declares ValueDepend; every other input has its shape and dtype only (GetData() is nullptr). Reads
// those inputs into host_data and points their io tensors at it; hands on io with that data.
void Launch::load_value_depend_inputs() {
  std::size_t inst = 0, ir = 0;
  const auto& declared_inputs = def->NpukbInputs();
  for (auto& p : req.params) {
    if (p.role != "input") continue;
    const bool value_depend = ir < declared_inputs.size() && declared_inputs[ir].NpukbValueDepend() != ops::IGNORE;
    ++ir;
    if (p.absent) continue;
    for (auto& t : p.tensors) {
      gert::Tensor& tensor = io.inputs[inst++];
      if (!value_depend) continue;
      host_data.emplace_back(t.bytes);
      read_file_into(dir + "/" + t.file, host_data.back().data(), t.bytes);
      tensor.NpukbSet(tensor.GetShape(), p.ge, host_data.back().data(), t.bytes);
    }
  }
}

// Gives io every attribute the OpDef declares (the task's value, else the default) and refuses one the
// OpDef does not declare; hands on io complete.
void Launch::describe_attrs() {
  for (const auto& decl : def->NpukbAttrs()) {
    const AttrReq* given = nullptr;
    for (const auto& a : req.attrs) {
      if (a.name == decl.NpukbName()) given = &a;
    }
    append_attr(io.attrs, decl, given);
  }
  // private attributes (OpImplRegisterV2::PrivateAttr) follow the IR attributes, with their values
  auto& impls = gert::NpukbOpImplRegistry();
  auto found = impls.find(req.op);
  if (found != impls.end()) {
    for (const auto& pa : found->second.private_attrs) {
      if (pa.kind == 'I' || pa.kind == 'F') {
        std::size_t elem = pa.kind == 'I' ? 8 : 4, count = pa.value.size() / elem;
        std::vector<std::uint8_t> buf(sizeof(gert::ContinuousVector) + pa.value.size() + 8, 0);
        auto* cv = reinterpret_cast<gert::ContinuousVector*>(buf.data());
        cv->Init(count);
        cv->SetSize(count);
        if (!pa.value.empty()) std::memcpy(cv->MutableData(), pa.value.data(), pa.value.size());
        io.attrs.NpukbAppend(buf.data(), buf.size());
      } else {
        io.attrs.NpukbAppend(pa.value.data(), pa.value.size());
      }
    }
  }
  for (const auto& a : req.attrs) {
    bool known = false;
    for (const auto& decl : def->NpukbAttrs()) known |= decl.NpukbName() == a.name;
    if (!known) {
      launch_error("the task passes attribute '" + a.name + "' but OpDef " + req.op +
                   " declares no such attribute: add this->Attr(\"" + a.name + "\")");
    }
  }
}

// Op implementation functions: the OpDef's own, else those registered with IMPL_OP_*. Refuses an op
// without a TilingFunc; hands on impl, infer_shape_fn, infer_dtype_fn and tiling_fn.
void Launch::find_host_functions() {
  {
    auto& impls = gert::NpukbOpImplRegistry();
    auto found = impls.find(req.op);
    if (found != impls.end()) impl = &found->second;
  }
  infer_shape_fn = def->NpukbInferShape();
  if (infer_shape_fn == nullptr && impl != nullptr) infer_shape_fn = impl->infer_shape;
  infer_dtype_fn = def->NpukbInferDataType();
  if (infer_dtype_fn == nullptr && impl != nullptr) infer_dtype_fn = impl->infer_datatype;
  tiling_fn = def->NpukbAICore().NpukbTiling();
  if (tiling_fn == nullptr && impl != nullptr) tiling_fn = impl->tiling;
  if (tiling_fn == nullptr) {
    launch_error("op " + req.op + " registers no tiling function: call this->AICore().SetTiling(TilingFunc) in the "
                 "OpDef or IMPL_OP_OPTILING(" + req.op + ").Tiling(TilingFunc)");
  }
}

// Collects what InferShape / InferDataType get wrong against the task's outputs from the helper process
// (infer_warnings) and records it as host_warnings in the result; hands on nothing.
void Launch::check_inference() {
  g_phase = "checking InferShape / InferDataType";
  std::string json = "[";
  for (const auto& w : infer_warnings(infer_shape_fn, infer_dtype_fn, req)) {
    json += (json.size() > 1 ? ", " : "") + json_str(w);
  }
  result_set("host_warnings", json + "]");
}

// TilingParse (TilingPrepare) runs once before tiling, with a fresh compile-info object; hands on
// compile_info (empty when the op registers no TilingParse).
void Launch::run_tiling_parse() {
  if (impl == nullptr || impl->tiling_parse == nullptr) return;
  g_phase = "the host TilingParse function";
  compile_info = std::unique_ptr<void, void (*)(void*)>(impl->create_compile_info(), impl->delete_compile_info);
  gert::TilingParseContext parse_ctx(&io, "{}", compile_info.get(), &platform);
  ge::graphStatus parsed;
  try {
    parsed = impl->tiling_parse(&parse_ctx);
  } catch (const std::exception& e) {
    launch_error(std::string("TilingParse threw an exception: ") + e.what());
  } catch (...) {
    launch_error("TilingParse threw an exception");
  }
  if (parsed != ge::GRAPH_SUCCESS) {
    launch_error("TilingParse (IMPL_OP_OPTILING(" + req.op + ").TilingParse<...>) returned failure (status " +
                 std::to_string(parsed) + ")");
  }
}

// Runs TilingFunc into the raw tiling buffer and refuses a failure or an overflow; hands on
// tiling_buf, tiling_bytes, block_dim, workspace_bytes and g_tiling_key.
void Launch::run_tiling() {
  tiling_buf.assign(kTilingCapacity, 0);
  gert::TilingData raw(tiling_buf.data(), tiling_buf.size());
  gert::TilingContext ctx(&io, &raw, &platform, compile_info.get());
  g_phase = "the host TilingFunc (input data reaches it only for inputs the OpDef declares ValueDepend; "
            "GetInputTensor(i)->GetData() is nullptr for the others)";
  ge::graphStatus status;
  try {
    status = tiling_fn(&ctx);
  } catch (const std::exception& e) {
    launch_error(std::string("TilingFunc threw an exception: ") + e.what());
  } catch (...) {
    launch_error("TilingFunc threw an exception");
  }
  if (status != ge::GRAPH_SUCCESS) {
    launch_error("TilingFunc returned failure (status " + std::to_string(status) + ")");
  }
  if (optiling::NpukbTilingOverflowBytes() > 0 || raw.NpukbOverflowed()) {
    launch_error("tiling data of " + std::to_string(optiling::NpukbTilingOverflowBytes()) +
                 " bytes does not fit the raw tiling buffer (capacity " + std::to_string(raw.GetCapacity()) + " bytes)");
  }
  if (raw.GetDataSize() > raw.GetCapacity()) {
    launch_error("tiling data size " + std::to_string(raw.GetDataSize()) + " exceeds the raw tiling buffer capacity " +
                 std::to_string(raw.GetCapacity()) + " bytes");
  }
  tiling_bytes = raw.GetDataSize();
  block_dim = ctx.GetBlockDim();
  g_tiling_key = ctx.GetTilingKey();
  for (auto w : ctx.NpukbWorkspace()) workspace_bytes += w;
}

// Derives the kernel type from the tiling key and checks it, and blockDim, against the 910B and this
// build; hands on g_kernel_type, g_waves, needs_aic and needs_aiv.
void Launch::choose_cores() {
  g_kernel_type = npukb_kernel_type != nullptr ? npukb_kernel_type(g_tiling_key) : K_AIV_ONLY;
  const bool cube_cores = g_kernel_type == K_AIC_ONLY || g_kernel_type == K_MIX_AIC_1_0 ||
                          g_kernel_type == K_MIX_AIC_1_1 || g_kernel_type == K_MIX_AIC_1_2;
  if (g_kernel_type >= K_AICORE) {
    launch_error("kernel type " + std::to_string(g_kernel_type) + " (KERNEL_TYPE_AICORE/VECTORCORE/MIX_AICORE/"
                 "MIX_VECTOR_CORE) is not available on the Ascend 910B: use KERNEL_TYPE_AIV_ONLY, AIC_ONLY or MIX_AIC_1_2");
  }
  // A vector kernel's blockDim is logical, as on the device: blocks beyond the SoC's vector cores run in
  // later waves on cores that finished (kMaxLogicalBlocks is this simulator's limit: one thread each).
  const npukb::SocInfo soc = npukb::soc_info();
  const uint32_t max_dim = static_cast<uint32_t>(cube_cores ? soc.cube_cores : kMaxLogicalBlocks);
  if (block_dim == 0 || block_dim > max_dim) {
    launch_error("blockDim " + std::to_string(block_dim) + " outside 1.." + std::to_string(max_dim) +
                 (block_dim == 0 ? std::string(" (TilingFunc must call context->SetBlockDim(n) with n >= 1)")
                  : cube_cores ? " (a kernel that uses the cube unit launches blockDim AI cores: the " +
                                     std::string(soc.name) + " has " + std::to_string(soc.cube_cores) +
                                     " AI cube cores, each with 2 vector cores)"
                               : " (the simulator runs at most 256 logical blocks; the " + std::string(soc.name) +
                                     " has " + std::to_string(soc.vector_cores) + " vector cores)"));
  }
  g_waves = !cube_cores && block_dim > static_cast<uint32_t>(soc.vector_cores);
  needs_aic = cube_cores;
  needs_aiv = !cube_cores || g_kernel_type == K_MIX_AIC_1_1 || g_kernel_type == K_MIX_AIC_1_2;
  if ((needs_aic && npukb_entry_aic == nullptr) || (needs_aiv && npukb_entry == nullptr)) {
    request_error("the build lacks the " + std::string(needs_aic && npukb_entry_aic == nullptr ? "cube (AIC)" : "vector (AIV)") +
                  " pass that kernel type " + std::to_string(g_kernel_type) + " needs (a simulator build error)");
  }
}

// Records the accepted tiling (blockDim, key, workspace, the tiling bytes and their first 4 KiB in hex)
// in the result; hands on nothing.
void Launch::record_tiling() {
  result_set("block_dim", std::to_string(block_dim));
  result_set("tiling_key", std::to_string(g_tiling_key));
  result_set("workspace_bytes", std::to_string(workspace_bytes));
  result_set("tiling_bytes", std::to_string(tiling_bytes));
  std::string hex;
  static const char* digits = "0123456789abcdef";
  for (std::size_t i = 0; i < std::min<std::size_t>(tiling_bytes, 4096); ++i) {
    hex += digits[tiling_buf[i] >> 4];
    hex += digits[tiling_buf[i] & 15];
  }
  result_set("tiling_hex", json_str(hex));
}

// Builds the GM buffers (inputs read in, aliased outputs sharing their input's buffer, the others,
// the workspace too, poisoned; the tiling bytes copied) and the kernel arguments; hands on args
// (g_args, each param's gm pointers) and the sorted GM regions.
void Launch::allocate_memory() {
  g_phase = "GM setup";
  // The OpDef's declaration of an output (the ascend910b configuration's where it declares one).
  const ops::OpAICoreConfig* cfg = nullptr;
  config_910b(*def, &cfg);
  auto output_decl = [&](const std::string& name) -> const ops::OpParamDef* {
    const ops::OpParamDef* found = nullptr;
    for (const auto& q : def->NpukbOutputs()) {
      if (q.NpukbName() == name) found = &q;
    }
    if (cfg != nullptr) {
      for (const auto& q : cfg->NpukbOutputs()) {
        ops::ScalarVar probe;
        if (q.NpukbName() == name && q.NpukbInitValue(0, &probe)) found = &q;
      }
    }
    return found;
  };
  std::map<std::string, ParamReq*> by_name;  // inputs, for aliases (an in-place output may share its input's name)
  for (auto& p : req.params) {
    if (p.role == "input") by_name[p.name] = &p;
  }
  for (auto& p : req.params) {
    if (p.absent) {
      p.arg = nullptr;
    } else {
      for (std::size_t j = 0; j < p.tensors.size(); ++j) {
        TensorReq& t = p.tensors[j];
        std::string label = p.tensors.size() > 1 || p.ptype == "DYNAMIC" ? p.name + "[" + std::to_string(j) + "]" : p.name;
        if (p.role == "output" && !p.alias.empty()) {
          auto a = by_name.find(p.alias);
          if (a == by_name.end() || a->second->role != "input" || a->second->tensors.size() != p.tensors.size() ||
              a->second->tensors[j].bytes != t.bytes) {
            request_error("output " + p.name + " aliases input " + p.alias + " of a different size");
          }
          t.gm = a->second->tensors[j].gm;
          continue;
        }
        t.gm = gm_alloc(t.bytes, label);
        // inputs, and outputs whose buffer the binding initialised (else they stay poisoned)
        if (p.role == "input" || t.file != "-") read_file_into(dir + "/" + t.file, t.gm, t.bytes);
        ops::ScalarVar init;
        if (p.role == "output" && output_decl(p.name) != nullptr && output_decl(p.name)->NpukbInitValue(column, &init)) {
          fill_init_value(t.gm, t.bytes, init);
        }
      }
      p.arg = p.ptype == "DYNAMIC" ? build_list_descriptor(p) : p.tensors.at(0).gm;
    }
    args.push_back(p.arg);
  }
  g_workspace = gm_alloc(workspace_bytes, "workspace");
  std::uint8_t* tiling_gm = gm_alloc(tiling_bytes, "tiling");
  std::memcpy(tiling_gm, tiling_buf.data(), tiling_bytes);
  args.push_back(g_workspace);
  args.push_back(tiling_gm);
  g_args = args.data();
  sort_regions();
}

// Blocks: the AIC blocks first, then the AIV blocks (AIV i belongs to AI core i / aiv_per_core). Sets
// up each block's guarded state and the guarded GM ranges and records the cores in the result; hands
// on g_blocks, n_aic and n_aiv.
void Launch::set_up_blocks() {
  g_phase = "the kernel launch";
  result_set("status", json_str("running"));
  g_aiv_per_core = g_kernel_type == K_MIX_AIC_1_2 ? 2 : 1;
  n_aic = needs_aic ? block_dim : 0;
  n_aiv = needs_aiv ? block_dim * (needs_aic ? g_aiv_per_core : 1) : 0;
  g_mixed = n_aic > 0 && n_aiv > 0;
  g_blocks.resize(n_aic + n_aiv);
  npukb::rt::create_private_state(static_cast<int>(n_aic + n_aiv), static_cast<int>(g_regions.size()));
  {
    std::vector<npukb::rt::GmRange> ranges;
    for (const auto& r : g_regions) ranges.push_back({reinterpret_cast<std::uintptr_t>(r.start), r.size});
    npukb::rt::set_gm_ranges(ranges.data(), static_cast<int>(ranges.size()));
  }
  for (uint32_t b = 0; b < n_aic + n_aiv; ++b) g_blocks[b].state = &npukb::rt::g_guard.blocks[b];
  for (uint32_t b = 0; b < n_aic + n_aiv; ++b) {
    npukb::BlockState& st = *g_blocks[b].state;
    st.kernel_type = g_kernel_type;
    st.block_num = static_cast<int>(block_dim);
    if (b < n_aic) {
      st.core_type = npukb::CORE_AIC;
      st.block_idx = st.core_idx = static_cast<int>(b);
      st.sub_block_idx = 0;
      st.sub_block_num = g_mixed ? g_aiv_per_core : 1;
    } else {
      const int i = static_cast<int>(b - n_aic);
      st.core_type = npukb::CORE_AIV;
      st.block_idx = i;
      st.core_idx = g_mixed ? i / g_aiv_per_core : i;
      st.sub_block_idx = g_mixed ? i % g_aiv_per_core : 0;
      st.sub_block_num = g_mixed ? g_aiv_per_core : 1;
    }
  }
  result_set("kernel_type", std::to_string(g_kernel_type));
  result_set("cores", "{\"aic\": " + std::to_string(n_aic) + ", \"aiv\": " + std::to_string(n_aiv) + "}");
}

// Runs every block as a thread under the cooperative scheduler and waits until all have finished;
// hands on the blocks' final state (cycles, GM traffic) and the kernel's writes in GM.
void Launch::schedule_blocks() {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, kBlockStackBytes);
  for (uint32_t b = 0; b < g_blocks.size(); ++b) {
    if (pthread_create(&g_blocks[b].thread, &attr, block_main, reinterpret_cast<void*>(static_cast<std::intptr_t>(b))) != 0) {
      launch_error("cannot start the thread of block " + std::to_string(b));
    }
  }
  // From here on no thread or process can be created, in any thread (the blocks wait for their turn).
  char err[300];
  if (nb_seccomp_no_clone(err, sizeof err) != 0 && errno != EINVAL && errno != ENOSYS) {
    launch_error(std::string("a thread of the candidate's escaped the launcher's seccomp filter: ") + err);
  }
  census(1 + static_cast<int>(g_blocks.size()), "when the kernel started");
  {
    std::unique_lock<std::mutex> lk(g_sched_mutex);
    g_started = true;
    // Order of a mixed launch: vector cores first for even poison seeds, cube cores first for odd ones,
    // so that a harness running a candidate with two seeds sees a missing cross-core flag in either
    // direction (the consumer runs before its producer in one of the runs).
    g_current = (g_mixed && (req.poison_seed & 1) == 0) ? static_cast<int>(n_aic) : 0;
    g_sched_cv.notify_all();
    g_sched_cv.wait(lk, [] { return g_current == -2; });
  }
  for (auto& s : g_blocks) pthread_join(s.thread, nullptr);
}

// Writes every output, and every input the kernel changed (as the kernel left it: all tensors of a
// list when one changed), to a .bin file and lists the files in the result; an input that still holds
// exactly what its input file holds is not listed (the harness reads it as unchanged), so that a
// half-billion-element input is not written back and read again. Hands on nothing.
void Launch::write_outputs() {
  g_phase = "writing the results";
  std::string outputs = "[", inputs_after = "[";
  for (std::size_t i = 0; i < req.params.size(); ++i) {
    auto& p = req.params[i];
    if (p.role != "output") {
      bool unchanged = true;
      for (std::size_t j = 0; unchanged && j < p.tensors.size() && !p.absent; ++j) {
        unchanged = file_holds(dir + "/" + p.tensors[j].file, p.tensors[j].gm, p.tensors[j].bytes);
      }
      if (unchanged) continue;
    }
    std::string files = "[";
    for (std::size_t j = 0; j < p.tensors.size() && !p.absent; ++j) {
      std::string name = (p.role == "output" ? "out_" : "after_") + std::to_string(i) + "_" + std::to_string(j) + ".bin";
      write_file(dir + "/" + name, p.tensors[j].gm, p.tensors[j].bytes);
      files += (j ? ", " : "") + json_str(name);
    }
    files += "]";
    std::string entry = "{\"name\": " + json_str(p.name) + ", \"files\": " + files + "}";
    std::string& target = p.role == "output" ? outputs : inputs_after;
    target += (target.size() > 1 ? ", " : "") + entry;
  }
  result_set("outputs", outputs + "]");
  result_set("inputs_after", inputs_after + "]");
}
// Marks the run ok and writes result.json; the last step.
void Launch::finish() {
  result_set("status", json_str("ok"));
  result_set("message", json_str(""));
  write_result();
}

}  // namespace launcher
}  // namespace npukb
