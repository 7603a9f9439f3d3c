-- tilecraft's language server in Neovim's built-in LSP client: no plugin needed.
--
-- In init.lua:
--   dofile("/path/to/tilecraft/editors/neovim/tilecraft.lua").setup({
--     python = "/path/to/tilecraft/.venv/bin/python",  -- the environment tilecraft[lsp] is installed in
--   })
--
-- Every Python buffer then gets the server (it only runs files that import ttl/tilecraft). Uses
-- vim.lsp.start on Neovim 0.8+ and start_client + buf_attach_client on 0.7 (Debian 12's). Code
-- lenses (each program's predicted time) refresh on open and save; inlay hints (cycles per line)
-- are turned on where Neovim has them (0.10+). docs/lsp.md lists the settings.
local M = {}

local function config(opts, bufnr)
  local file = vim.api.nvim_buf_get_name(bufnr)
  return {
    name = "tilecraft",
    cmd = { opts.python or "python3", "-m", "tilecraft", "lsp" },
    root_dir = vim.fs and vim.fs.dirname(file) or vim.fn.fnamemodify(file, ":h"),
    init_options = opts.settings or {},
  }
end

-- Start (or reuse) the server for one buffer; returns the client id.
function M.start(bufnr, opts)
  local cfg = config(opts or {}, bufnr)
  if vim.lsp.start then
    return vim.lsp.start(cfg, { bufnr = bufnr })
  end
  for _, client in pairs(vim.lsp.get_active_clients()) do
    if client.name == cfg.name and client.config.root_dir == cfg.root_dir then
      vim.lsp.buf_attach_client(bufnr, client.id)
      return client.id
    end
  end
  local id = vim.lsp.start_client(cfg)
  vim.lsp.buf_attach_client(bufnr, id)
  return id
end

-- The code lens command: write the Chrome trace of the file and say where (open it in ui.perfetto.dev).
vim.lsp.commands["tilecraft.openTrace"] = function(command, _)
  local file = vim.uri_to_fname(command.arguments[1])
  local trace = vim.fn.tempname() .. ".json"
  local python = M.python or "python3"
  vim.fn.jobstart({ python, "-m", "tilecraft", "profile", file, "--no-values", "--trace", trace }, {
    -- a script that checks its results exits 1 (E0710) after the trace is written: --no-values
    -- computes no values
    on_exit = function(_, code)
      vim.notify((code == 0 or vim.fn.filereadable(trace) == 1)
        and ("tilecraft: trace written to " .. trace .. "; open it in https://ui.perfetto.dev")
        or "tilecraft: the profile failed (run tilecraft profile on the file to see why)")
    end,
  })
end

function M.setup(opts)
  opts = opts or {}
  M.python = opts.python
  vim.api.nvim_create_autocmd("FileType", {
    pattern = "python",
    callback = function(args)
      M.start(args.buf, opts)
      if vim.lsp.inlay_hint and vim.lsp.inlay_hint.enable then
        pcall(vim.lsp.inlay_hint.enable, true, { bufnr = args.buf })
      end
      vim.api.nvim_create_autocmd({ "BufEnter", "BufWritePost" }, {
        buffer = args.buf,
        callback = function() pcall(vim.lsp.codelens.refresh) end,
      })
    end,
  })
end

return M
