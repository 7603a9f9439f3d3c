// The ADC instructions: SETADC, SETADCXX, SETADCXY/ZW, INCADCXY/ZW, ADDRCRXY/ZW.
//
// Facts from tt-isa-documentation (WormholeB0 ADCs.md, SETADC*.md, INCADC*.md, ADDRCR*.md); the
// code is ours. Bits 21..23 of each instruction select which of a thread's ADCs it writes
// (unpacker 0, unpacker 1, the packers); ThreadOverride picks another thread's ADCs (0: the
// issuing thread's). The counters are MachineState::adc, the one record UNPACR (unpack.cpp) and
// PACR (pack.cpp) read, so a counter set by one thread is what the unit reading it sees.
#include <cstdint>

#include "adc.h"
#include "machine.h"

namespace tc_tensix {

namespace {

using adc::bump;
using adc::counter;
using adc::counter_cr;
using adc::kMask;

template <typename Fn>
void for_each_adc(Machine& m, int thread, uint32_t word, uint32_t thread_override, Fn&& fn) {
    const uint32_t t = thread_override == 0 ? uint32_t(thread) : thread_override - 1;
    if (t >= kNumThreads) m.fail(thread, word, "ThreadOverride names no thread");
    ThreadAdcs& adcs = m.s.adc[t];
    if (field(word, 21, 1)) fn(adcs.unpacker[0]);
    if (field(word, 22, 1)) fn(adcs.unpacker[1]);
    if (field(word, 23, 1)) fn(adcs.packers);
}

void set_counter(AdcChannel& ch, int dim, uint32_t v) { counter(ch, dim) = counter_cr(ch, dim) = v & kMask[dim]; }

void add_counter_cr(AdcChannel& ch, int dim, uint32_t inc) { set_counter(ch, dim, counter_cr(ch, dim) + inc); }

// SETADC's 18-bit NewValue field carries ThreadOverride in its top two bits, so the counter gets
// the low 16. (The ISA page's model assigns NewValue whole, which would leave the override in
// 18-bit X; the LLK's own SETADC_THREAD_OVERRIDE macro packs `thread << 16 | value`, and Blackhole's
// face-compressed matmul sets each borrowed thread's channel-1 X end to 255 through it.)
void setadc(Machine& m, int thread, uint32_t word) {
    const uint32_t value = field(word, 0, 18), dim = field(word, 18, 2), channel = field(word, 20, 1);
    for_each_adc(m, thread, word, value >> 16, [&](AdcChannel* ch) { set_counter(ch[channel], int(dim), value & 0xffffu); });
}

void setadcxx(Machine& m, int thread, uint32_t word) {
    const uint32_t x0 = field(word, 0, 10), x1 = field(word, 10, 10);
    for_each_adc(m, thread, word, 0, [&](AdcChannel* ch) {
        set_counter(ch[0], 0, x0);
        set_counter(ch[1], 0, x1);
    });
}

// SETADCXY/SETADCZW (set), INCADCXY/INCADCZW (add to the counter), ADDRCRXY/ADDRCRZW (add to the
// carriage-return register and copy it into the counter) share one layout: four 3-bit values at
// bits 6, 9, 12, 15 for (ch0 lo, ch0 hi, ch1 lo, ch1 hi) with lo/hi = X/Y or Z/W, and a 4-bit
// mask at bit 0 (unused by INCADC*).
enum class AdcOp { Set, Inc, AddCr };

template <int kLoDim, AdcOp kOp>
void adc_pair(Machine& m, int thread, uint32_t word) {
    const uint32_t vals[4] = {field(word, 6, 3), field(word, 9, 3), field(word, 12, 3), field(word, 15, 3)};
    const uint32_t mask = kOp == AdcOp::Inc ? 0xfu : field(word, 0, 4);
    for_each_adc(m, thread, word, field(word, 18, 2), [&](AdcChannel* ch) {
        for (int i = 0; i < 4; ++i) {
            if (!((mask >> i) & 1u)) continue;
            AdcChannel& c = ch[i / 2];
            const int dim = kLoDim + (i & 1);
            if (kOp == AdcOp::Set) set_counter(c, dim, vals[i]);
            if (kOp == AdcOp::Inc) bump(c, dim, vals[i]);
            if (kOp == AdcOp::AddCr) add_counter_cr(c, dim, vals[i]);
        }
    });
}

}  // namespace

TC_OPCODE(0x50, SETADC, setadc);
TC_OPCODE(0x5e, SETADCXX, setadcxx);
TC_OPCODE(0x51, SETADCXY, (adc_pair<0, AdcOp::Set>));
TC_OPCODE(0x54, SETADCZW, (adc_pair<2, AdcOp::Set>));
TC_OPCODE(0x52, INCADCXY, (adc_pair<0, AdcOp::Inc>));
TC_OPCODE(0x55, INCADCZW, (adc_pair<2, AdcOp::Inc>));
TC_OPCODE(0x53, ADDRCRXY, (adc_pair<0, AdcOp::AddCr>));
TC_OPCODE(0x56, ADDRCRZW, (adc_pair<2, AdcOp::AddCr>));

}  // namespace tc_tensix
