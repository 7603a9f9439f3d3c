-- Headless Neovim end to end (tests/lsp/test_lsp_neovim.py): the documented setup, one file with a
-- planted error, and the diagnostics Neovim received, written as JSON.
local python, file, out, setup = os.getenv("TC_PYTHON"), os.getenv("TC_FILE"), os.getenv("TC_OUT"), os.getenv("TC_SETUP")
dofile(setup).setup({ python = python })
vim.cmd("edit " .. vim.fn.fnameescape(file))
local buf = vim.api.nvim_get_current_buf()
local ok = vim.wait(60000, function() return #vim.diagnostic.get(buf) > 0 end, 50)
local found = {}
for _, d in ipairs(vim.diagnostic.get(buf)) do
  local lsp = d.user_data and d.user_data.lsp or {}
  table.insert(found, { lnum = d.lnum, col = d.col, end_col = d.end_col, severity = d.severity,
                        code = d.code or lsp.code, source = d.source or lsp.source, message = d.message })
end
local handle = io.open(out, "w")
handle:write(vim.fn.json_encode({ received = ok, diagnostics = found }))
handle:close()
for _, client in pairs(vim.lsp.get_active_clients()) do client.stop() end
vim.wait(5000, function() return #vim.lsp.get_active_clients() == 0 end, 50)
vim.cmd("qall!")
