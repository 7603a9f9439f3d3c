// The device and the C interface Python drives it through (ctypes): build a device, place
// circular buffers, semaphores, tensors and kernels, run, read the findings and memory back.
#include "device.h"

#include <dlfcn.h>
#include <sys/mman.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "formats.h"

namespace tc {

Device* g_dev = nullptr;

std::string fmt_str(const char* format, ...) {
    char buffer[2048];
    va_list args;
    va_start(args, format);
    std::vsnprintf(buffer, sizeof buffer, format, args);
    va_end(args);
    return buffer;
}

const char* slot_name(int slot) {
    switch (slot) {
        case BRISC: return "BRISC";
        case NCRISC: return "NCRISC";
        case TRISC: return "compute (TRISC0-2)";
        default: return "?";
    }
}

std::string core_name(int core) {
    if (core < 0 || g_dev == nullptr || std::size_t(core) >= g_dev->cores.size()) return "(?)";
    const Core& c = g_dev->cores[core];
    return fmt_str("(%d, %d)", c.lx, c.ly);
}

std::string where(int core, int slot) { return fmt_str("core %s %s", core_name(core).c_str(), slot_name(slot)); }

void Device::to_physical(std::uint32_t& x, std::uint32_t& y) const {
    if (x < 64 && y < 64 && virt_px[x] >= 0 && virt_py[y] >= 0) {
        x = std::uint32_t(virt_px[x]);
        y = std::uint32_t(virt_py[y]);
    }
}

int Device::core_index_at(std::uint32_t x, std::uint32_t y) const {
    to_physical(x, y);
    if (x >= arch.noc_size_x || y >= arch.noc_size_y) return -1;
    return xy_core[y * arch.noc_size_x + x];
}

int Device::dram_bank_at(std::uint32_t x, std::uint32_t y) const {
    if (x >= arch.noc_size_x || y >= arch.noc_size_y) return -1;
    return xy_dram[y * arch.noc_size_x + x];
}

bool Device::l1_offset(std::uint64_t addr, std::uint32_t& offset, int* owner) const {
    std::uintptr_t base = reinterpret_cast<std::uintptr_t>(l1_window);
    if (addr >= base && addr < base + l1_window_size) {
        std::uint64_t rel = addr - base;
        if (owner) *owner = int(rel / l1_stride);
        offset = std::uint32_t(rel % l1_stride);
        return offset < arch.l1_size;  // an offset past L1 still names its slot's core
    }
    if (owner) *owner = -1;
    offset = std::uint32_t(addr);
    return addr < arch.l1_size;
}

void report_at(bool error, const char* code, Loc loc, int core, int slot, const std::string& message,
               const std::string& hint, std::vector<NoteRec> notes) {
    Device& d = *g_dev;
    Finding f;
    f.error = error;
    f.code = code;
    f.message = message;
    f.hint = hint;
    f.loc = loc;
    f.core = core;
    f.slot = slot;
    f.notes = std::move(notes);
    d.findings.push_back(std::move(f));
}

void report(bool error, const char* code, Loc loc, const std::string& message, const std::string& hint) {
    Device& d = *g_dev;
    Fiber* f = d.current;
    // a warning is reported once per source line (it would repeat for every tile otherwise)
    if (!error) {
        for (const Finding& old : d.findings) {
            if (old.code == code && old.loc.line() == loc.line() && std::strcmp(old.loc.file_name(), loc.file_name()) == 0) return;
        }
    }
    report_at(error, code, loc, f ? f->core : -1, f ? f->slot : -1, message, hint);
    if (error && d.sanitize_fatal && f != nullptr) {
        d.aborted = true;
        swapcontext(&f->ctx, &d.scheduler_ctx);  // never resumed
    }
}

void stop_here(const char* code, Loc loc, const std::string& message, const std::string& hint) {
    Device& d = *g_dev;
    Fiber* f = d.current;
    report_at(true, code, loc, f ? f->core : -1, f ? f->slot : -1, message, hint);
    d.aborted = true;
    if (f != nullptr) swapcontext(&f->ctx, &d.scheduler_ctx);  // never resumed
    std::abort();  // outside a fiber: nothing can go on
}

void assert_failed(const char* condition, Loc loc) {
    stop_here("E5008", loc, fmt_str("ASSERT(%s) failed", condition),
              "with the watcher on, the device hangs at a failed ASSERT and the host reports this line");
}

namespace {

void json_string(std::string& out, const std::string& s) {
    out += '"';
    for (char c : s) {
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\t': out += "\\t"; break;
            default:
                if (static_cast<unsigned char>(c) < 0x20) out += fmt_str("\\u%04x", c);
                else out += c;
        }
    }
    out += '"';
}

void json_place(std::string& out, Loc loc, int core, int slot) {
    out += "\"file\":";
    json_string(out, loc.file_name());
    out += fmt_str(",\"line\":%u,\"column\":%u,\"core\":", loc.line(), loc.column());
    if (core >= 0) {
        const Core& c = g_dev->cores[core];
        out += fmt_str("[%d,%d]", c.lx, c.ly);
    } else {
        out += "null";
    }
    out += ",\"risc\":";
    json_string(out, slot >= 0 ? slot_name(slot) : "");
}

}  // namespace

}  // namespace tc

using namespace tc;

extern "C" {

// core_table: per core lx, ly, physical x, y, virtual x, y; dram_table: per bank nx, ny
void* tc_create(std::uint32_t l1_size, std::uint32_t l1_reserved, std::uint32_t num_cbs, std::uint32_t sem_base,
                std::uint32_t args_base, std::uint32_t noc_size_x, std::uint32_t noc_size_y,
                std::uint32_t dram_alignment, int num_cores, const int* core_table, int num_dram,
                const int* dram_table, const std::uint64_t* dram_sizes, int num_l1_banks, const int* l1_banks,
                int sanitize_fatal) {
    static std::uint64_t devices_made = 0;
    Device* d = new Device();
    d->serial = ++devices_made;
    d->arch.l1_size = l1_size;
    d->arch.l1_reserved = l1_reserved;
    d->arch.num_cbs = num_cbs;
    d->arch.sem_base = sem_base;
    d->arch.args_base = args_base;
    d->arch.noc_size_x = noc_size_x;
    d->arch.noc_size_y = noc_size_y;
    d->arch.dram_alignment = dram_alignment;
    d->sanitize_fatal = sanitize_fatal != 0;
    d->l1_stride = (std::size_t(l1_size) + (1u << 20) - 1) & ~std::size_t((1u << 20) - 1);
    d->l1_window_size = d->l1_stride * std::size_t(num_cores);
    void* window = mmap(nullptr, d->l1_window_size, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_32BIT, -1, 0);
    if (window == MAP_FAILED) {
        delete d;
        return nullptr;
    }
    d->l1_window = static_cast<std::uint8_t*>(window);
    d->xy_core.assign(std::size_t(noc_size_x) * noc_size_y, -1);
    for (int i = 0; i < 64; ++i) d->virt_px[i] = d->virt_py[i] = -1;
    d->xy_dram.assign(std::size_t(noc_size_x) * noc_size_y, -1);
    d->cores.resize(num_cores);
    for (int i = 0; i < num_cores; ++i) {
        Core& c = d->cores[i];
        c.index = i;
        c.lx = core_table[6 * i];
        c.ly = core_table[6 * i + 1];
        c.nx = std::uint8_t(core_table[6 * i + 2]);
        c.ny = std::uint8_t(core_table[6 * i + 3]);
        c.vx = std::uint8_t(core_table[6 * i + 4]);
        c.vy = std::uint8_t(core_table[6 * i + 5]);
        c.my_x[0] = c.my_x[1] = c.vx;
        c.my_y[0] = c.my_y[1] = c.vy;
        d->virt_px[c.vx & 63] = c.nx;
        d->virt_py[c.vy & 63] = c.ny;
        c.l1 = d->l1_window + std::size_t(i) * d->l1_stride;
        c.cbs.resize(num_cbs);
        c.compute = new_compute();
        d->xy_core[std::size_t(c.ny) * noc_size_x + c.nx] = i;
    }
    d->dram.resize(num_dram);
    for (int b = 0; b < num_dram; ++b) {
        DramBank& bank = d->dram[b];
        bank.nx = std::uint8_t(dram_table[2 * b]);
        bank.ny = std::uint8_t(dram_table[2 * b + 1]);
        bank.size = dram_sizes[b];
        if (bank.size) {
            void* mem = mmap(nullptr, bank.size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                             -1, 0);
            bank.mem = mem == MAP_FAILED ? nullptr : static_cast<std::uint8_t*>(mem);
        }
        d->xy_dram[std::size_t(bank.ny) * noc_size_x + bank.nx] = b;
    }
    d->l1_banks.assign(l1_banks, l1_banks + num_l1_banks);
    return d;
}

void tc_destroy(void* handle) {
    Device* d = static_cast<Device*>(handle);
    if (d == nullptr) return;
    for (Fiber* f : d->fibers) {
        if (f->stack) munmap(f->stack, f->stack_size + 4096);
        delete f;
    }
    for (Kernel* k : d->kernels) {
        // unloaded after each run: the next run maps the cache entry afresh (a rebuilt entry is a new
        // file) and starts with the kernel's globals initialised again
        if (k->lib) dlclose(k->lib);
        for (void* lib : k->trisc_libs)
            if (lib) dlclose(lib);
        delete k;
    }
    for (Core& c : d->cores) delete_compute(c.compute);
    for (DramBank& b : d->dram)
        if (b.mem) munmap(b.mem, b.size);
    munmap(d->l1_window, d->l1_window_size);
    if (g_dev == d) g_dev = nullptr;
    delete d;
}

int tc_add_cb(void* handle, int core, int index, std::uint32_t addr, std::uint32_t size, std::uint32_t page_size,
              int format, int tile_rows, int tile_cols) {
    Device* d = static_cast<Device*>(handle);
    if (core < 0 || std::size_t(core) >= d->cores.size() || index < 0 || std::uint32_t(index) >= d->arch.num_cbs)
        return -1;
    CircularBuffer& cb = d->cores[core].cbs[index];
    cb.configured = true;
    cb.addr = addr;
    cb.size = size;
    cb.page_size = page_size;
    cb.num_pages = page_size ? size / page_size : 0;
    cb.format = std::uint8_t(format);
    cb.tile = TileShape{std::uint32_t(tile_rows), std::uint32_t(tile_cols)};
    for (int s = 0; s < kSlots; ++s) cb.wr_ptr[s] = cb.rd_ptr[s] = addr;
    return 0;
}

int tc_add_semaphore(void* handle, int core, int id, std::uint32_t initial) {
    Device* d = static_cast<Device*>(handle);
    if (core < 0 || std::size_t(core) >= d->cores.size() || id < 0 || id >= 16) return -1;
    d->cores[core].semaphore_used[id] = true;
    std::memcpy(d->l1_host(core, d->arch.sem_base + 16 * std::uint32_t(id)), &initial, 4);
    return 0;
}

int tc_add_region(void* handle, int dram, int index, std::uint64_t start, std::uint64_t end, const char* what) {
    Device* d = static_cast<Device*>(handle);
    Region r{start, end, what, false};
    if (dram) {
        if (index < 0 || std::size_t(index) >= d->dram.size() || end > d->dram[index].size) return -1;
        d->dram[index].regions.push_back(r);
    } else {
        if (index < 0 || std::size_t(index) >= d->cores.size() || end > d->arch.l1_size) return -1;
        d->cores[index].l1_regions.push_back(r);
    }
    return 0;
}

// Whether a kernel wrote into the DRAM buffer at `base` (in any bank).
int tc_dram_written(void* handle, std::uint64_t base) {
    Device* d = static_cast<Device*>(handle);
    for (const DramBank& bank : d->dram)
        for (const Region& r : bank.regions)
            if (r.start == base && r.written) return 1;
    return 0;
}

static std::uint8_t* memory(Device* d, int dram, int index, std::uint64_t offset, std::uint64_t size) {
    if (dram) {
        if (index < 0 || std::size_t(index) >= d->dram.size() || offset + size > d->dram[index].size) return nullptr;
        return d->dram[index].mem + offset;
    }
    if (index < 0 || std::size_t(index) >= d->cores.size() || offset + size > d->arch.l1_size) return nullptr;
    return d->l1_host(index, std::uint32_t(offset));
}

int tc_write(void* handle, int dram, int index, std::uint64_t offset, const void* data, std::uint64_t size) {
    std::uint8_t* p = memory(static_cast<Device*>(handle), dram, index, offset, size);
    if (p == nullptr) return -1;
    std::memcpy(p, data, size);
    return 0;
}

int tc_read(void* handle, int dram, int index, std::uint64_t offset, void* out, std::uint64_t size) {
    std::uint8_t* p = memory(static_cast<Device*>(handle), dram, index, offset, size);
    if (p == nullptr) return -1;
    std::memcpy(out, p, size);
    return 0;
}

// Interleaved pages: page p lives in bank p % banks at offset base + (p / banks) * aligned_page.
int tc_interleaved(void* handle, int dram, int write, std::uint64_t base, std::uint32_t page_size,
                   std::uint32_t aligned_page, std::uint64_t pages, void* data) {
    Device* d = static_cast<Device*>(handle);
    std::uint64_t banks = dram ? d->dram.size() : d->l1_banks.size();
    auto* bytes = static_cast<std::uint8_t*>(data);
    for (std::uint64_t p = 0; p < pages; ++p) {
        int bank = int(p % banks);
        int index = dram ? bank : d->l1_banks[bank];
        std::uint64_t offset = base + (p / banks) * aligned_page;
        std::uint8_t* mem = memory(d, dram, index, offset, page_size);
        if (mem == nullptr) return -1;
        if (write) std::memcpy(mem, bytes + p * page_size, page_size);
        else std::memcpy(bytes + p * page_size, mem, page_size);
    }
    return 0;
}

// A tiled interleaved tensor between its row-major 32-bit words (fp32 bits or integers) and its
// pages: tilize (faces) + encode + scatter over the banks on write, the reverse on read, in one
// pass. `lead` matrices of rows x cols (multiples of 32) one after another; page p is tile p.
int tc_tiled_tensor(void* handle, int dram, int write, std::uint64_t base, std::uint32_t aligned_page, int format,
                    int integer, std::uint32_t* words, std::uint64_t lead, std::uint32_t rows, std::uint32_t cols) {
    Device* d = static_cast<Device*>(handle);
    const std::uint8_t f = std::uint8_t(format);
    const TileShape shape{32, 32};
    const std::uint32_t page_size = format_tile_bytes(f, 32, 32);
    if (page_size == 0) return -2;
    const std::uint64_t banks = dram ? d->dram.size() : d->l1_banks.size();
    const std::uint32_t tiles_r = rows / 32, tiles_c = cols / 32;
    std::uint32_t tile[1024];
    std::uint64_t p = 0;
    for (std::uint64_t m = 0; m < lead; ++m) {
        std::uint32_t* matrix = words + m * rows * cols;
        for (std::uint32_t tr = 0; tr < tiles_r; ++tr) {
            for (std::uint32_t tcol = 0; tcol < tiles_c; ++tcol, ++p) {
                const int bank = int(p % banks);
                std::uint8_t* mem = memory(d, dram, dram ? bank : d->l1_banks[bank], base + (p / banks) * aligned_page,
                                           page_size);
                if (mem == nullptr) return -1;
                std::uint32_t* origin = matrix + std::uint64_t(tr) * 32 * cols + tcol * 32;
                if (write) {
                    for (std::uint32_t r = 0; r < 32; ++r)
                        for (std::uint32_t fc = 0; fc < 2; ++fc)
                            std::memcpy(tile + shape.at(r, fc * 16), origin + std::uint64_t(r) * cols + fc * 16, 64);
                    if (!encode_tile(f, tile, integer != 0, shape, mem)) return -2;
                } else {
                    if (!decode_tile(f, mem, shape, tile)) return -2;
                    for (std::uint32_t r = 0; r < 32; ++r)
                        for (std::uint32_t fc = 0; fc < 2; ++fc)
                            std::memcpy(origin + std::uint64_t(r) * cols + fc * 16, tile + shape.at(r, fc * 16), 64);
                }
            }
        }
    }
    return 0;
}

static char g_error[1024];

const char* tc_last_error() { return g_error; }

void* tc_load_kernel(void* handle, const char* path, const char* name, int noc) {
    Device* d = static_cast<Device*>(handle);
    void* lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (lib == nullptr) {
        std::snprintf(g_error, sizeof g_error, "%s", dlerror());
        return nullptr;
    }
    auto entry = reinterpret_cast<void (*)()>(dlsym(lib, "tc_kernel_entry"));
    if (entry == nullptr) {
        std::snprintf(g_error, sizeof g_error, "%s has no tc_kernel_entry", path);
        return nullptr;
    }
    Kernel* k = new Kernel();
    k->lib = lib;
    k->entry = entry;
    k->name = name;
    k->noc = std::uint8_t(noc);
    d->kernels.push_back(k);
    return k;
}

int tc_add_fiber(void* handle, int core, int slot, void* kernel, const std::uint32_t* args, int n_args,
                 const std::uint32_t* common, int n_common) {
    Device* d = static_cast<Device*>(handle);
    if (core < 0 || std::size_t(core) >= d->cores.size() || slot < 0 || slot >= kSlots) return -1;
    if (n_args > 1024 || n_common > 1024) return -2;
    Fiber* f = new Fiber();
    f->core = core;
    f->slot = slot;
    f->kernel = static_cast<Kernel*>(kernel);
    f->args.assign(args, args + n_args);
    f->common_args.assign(common, common + n_common);
    std::uint32_t base = d->arch.args_base + std::uint32_t(slot) * 0x2000;
    std::memcpy(d->l1_host(core, base), args, std::size_t(n_args) * 4);
    std::memcpy(d->l1_host(core, base + 0x1000), common, std::size_t(n_common) * 4);
    d->cores[core].fibers[slot] = f;
    d->fibers.push_back(f);
    return 0;
}

int tc_run(void* handle) {
    Device* d = static_cast<Device*>(handle);
    g_dev = d;
    for (Fiber* f : d->fibers)
        if (f->slot == TRISC) compute_configure(d, f->core, f->kernel);  // the compute checks' DST mode
    run_all();
    g_dev = nullptr;
    for (const Finding& f : d->findings)
        if (f.error) return 1;
    return 0;
}

const char* tc_findings_json(void* handle) {
    Device* d = static_cast<Device*>(handle);
    g_dev = d;
    std::string& out = d->findings_json;
    out = "[";
    for (std::size_t i = 0; i < d->findings.size(); ++i) {
        const Finding& f = d->findings[i];
        if (i) out += ",";
        out += "{\"error\":";
        out += f.error ? "true" : "false";
        out += ",\"code\":";
        json_string(out, f.code);
        out += ",\"message\":";
        json_string(out, f.message);
        out += ",\"hint\":";
        json_string(out, f.hint);
        out += ",";
        json_place(out, f.loc, f.core, f.slot);
        out += ",\"notes\":[";
        for (std::size_t j = 0; j < f.notes.size(); ++j) {
            const NoteRec& n = f.notes[j];
            if (j) out += ",";
            out += "{\"message\":";
            json_string(out, n.message);
            out += ",";
            json_place(out, n.loc, n.core, n.slot);
            out += "}";
        }
        out += "]}";
    }
    out += "]";
    g_dev = nullptr;
    return out.c_str();
}

const char* tc_dprint_log(void* handle) { return static_cast<Device*>(handle)->dprint_log.c_str(); }

std::uint64_t tc_switches(void* handle) { return static_cast<Device*>(handle)->switches; }

int tc_encode_tiles(int format, int rows, int cols, const std::uint32_t* words, int integer, std::uint64_t tiles,
                    std::uint8_t* out) {
    TileShape shape{std::uint32_t(rows), std::uint32_t(cols)};
    std::uint32_t bytes = format_tile_bytes(std::uint8_t(format), shape.rows, shape.cols);
    if (bytes == 0) return -1;
    for (std::uint64_t t = 0; t < tiles; ++t)
        encode_tile(std::uint8_t(format), words + t * shape.elems(), integer != 0, shape, out + t * bytes);
    return 0;
}

int tc_decode_tiles(int format, int rows, int cols, const std::uint8_t* in, std::uint64_t tiles,
                    std::uint32_t* words) {
    TileShape shape{std::uint32_t(rows), std::uint32_t(cols)};
    std::uint32_t bytes = format_tile_bytes(std::uint8_t(format), shape.rows, shape.cols);
    if (bytes == 0) return -1;
    for (std::uint64_t t = 0; t < tiles; ++t)
        decode_tile(std::uint8_t(format), in + t * bytes, shape, words + t * shape.elems());
    return 0;
}

std::uint32_t tc_tile_bytes(int format, int rows, int cols) {
    return format_tile_bytes(std::uint8_t(format), std::uint32_t(rows), std::uint32_t(cols));
}

}  // extern "C"
