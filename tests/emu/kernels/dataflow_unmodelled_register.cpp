// Test kernel: reads an NIU status counter tilecraft's NoC model does not keep (the slave side's
// NIU_SLV_RD_RESP_SENT); on the real dataflow API that is a hard error naming the register.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    volatile uint32_t sent = NOC_STATUS_READ_REG(noc_index, NIU_SLV_RD_RESP_SENT);
    (void)sent;
}
