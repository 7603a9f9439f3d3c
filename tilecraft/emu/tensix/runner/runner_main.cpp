// The runner of an LLK test on one core of tilecraft's Tensix machine (tilecraft/emu/tensix_build.py
// builds it once per arch and calls it per run).
//
//   tensix_runner <l1 image> <runtime args | -> <timeout s> <unpack.so> <math.so> <pack.so>
//
// The L1 image file is mapped shared, so the run's writes to L1 are the file's new contents. The
// runtime args are written to L1 at the linker script's RUNTIME_ARGS_START, where the kernels
// read them, and must be sizeof(RuntimeParams) bytes. A runtime-args path of `-` gives none: the
// kernels copy their RuntimeParams from L1 as it stands, of whatever size their own source
// defines it (a kernel that brings its own struct, which the suite never writes). Each TRISC's kernel is a shared object loaded with RTLD_LOCAL (its globals and
// inline functions stay its own); their tc_trisc_main run on the three fibers. A hard error,
// deadlock or crash is printed to stderr and exits with status 3.
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "../fibers.h"

namespace {

constexpr std::size_t kRuntimeArgsStart = 0x20000;  // helpers/ld/memory.<arch>.ld: RUNTIME_ARGS_START
constexpr int kExitRunError = 3, kExitUsage = 2;
constexpr std::size_t kRuntimeArgsInL1 = SIZE_MAX;  // tc_trisc_main.h: kTcRuntimeArgsInL1

using TriscMain = std::size_t (*)(std::size_t args_size);

[[noreturn]] void die(int status, const std::string& message) {
    std::fprintf(stderr, "%s\n", message.c_str());
    std::exit(status);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 7) die(kExitUsage, "usage: tensix_runner <l1 image> <runtime args | -> <timeout s> <unpack.so> <math.so> <pack.so>");
    const int fd = open(argv[1], O_RDWR);
    struct stat st {};
    if (fd < 0 || fstat(fd, &st) != 0) die(kExitUsage, std::string("cannot open the L1 image ") + argv[1]);
    auto* l1 = static_cast<uint8_t*>(mmap(nullptr, std::size_t(st.st_size), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0));
    if (l1 == MAP_FAILED) die(kExitUsage, "cannot map the L1 image");
    const bool args_in_l1 = std::strcmp(argv[2], "-") == 0;
    std::vector<char> args;
    if (!args_in_l1) {
        std::ifstream args_file(argv[2], std::ios::binary);
        args.assign(std::istreambuf_iterator<char>(args_file), std::istreambuf_iterator<char>());
    }
    if (kRuntimeArgsStart + args.size() > std::size_t(st.st_size))
        die(kExitRunError, "the runtime args do not fit in L1 at RUNTIME_ARGS_START (0x20000)");
    std::memcpy(l1 + kRuntimeArgsStart, args.data(), args.size());
    const std::size_t args_size = args_in_l1 ? kRuntimeArgsInL1 : args.size();

    TriscMain entries[tc_tensix::kNumThreads] = {};
    for (int t = 0; t < tc_tensix::kNumThreads; ++t) {
        void* handle = dlopen(argv[4 + t], RTLD_NOW | RTLD_LOCAL);
        if (handle == nullptr) die(kExitRunError, std::string("cannot load a TRISC kernel: ") + dlerror());
        entries[t] = reinterpret_cast<TriscMain>(dlsym(handle, "tc_trisc_main"));
        if (entries[t] == nullptr) die(kExitRunError, std::string(argv[4 + t]) + " has no tc_trisc_main");
    }

    auto* machine = new tc_tensix::Machine(tc_tensix::kArch);  // large: not on the stack
    machine->s.l1 = l1;
    machine->s.l1_size = std::size_t(st.st_size);
    const std::string error = tc_tensix::run_triscs(
        *machine,
        [&](int thread) {
            const std::size_t expected = entries[thread](args_size);
            if (expected != 0)
                tc_tensix::fiber_fail("the runtime args are " + std::to_string(args.size()) +
                                      " bytes, but this build's RuntimeParams is " + std::to_string(expected) + " bytes");
        },
        std::atof(argv[3]));
    msync(l1, std::size_t(st.st_size), MS_SYNC);
    if (!error.empty()) die(kExitRunError, error);
    return 0;
}
