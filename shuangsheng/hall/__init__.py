"""The hall, `serve` and `show`: the hardened HTTP server and the TV's data (`server`), the table API and the hall
server (`hall`), the desk API (`desk_api`), what both APIs share (`api_common`), the 扫码单 kept in step with the
draws (`qr_watch`) and where `show --export` may write (`export`). May import every layer below it, the
use-cases included; the pages it serves are rendered by `render`."""
