"""The hall, `serve` and `show`: every URL they answer, in one route table (`routes`), the hardened HTTP server
(`server`), what the TV shows, read from the folder (`board`), this machine's LAN address (`lan`), the table API
and the hall server (`hall`), the desk API (`desk_api`), what both APIs share (`api_common`: the one request
check, the JSON body parser), their one event.db connection and retry policy (`shared_ledger`), the 扫码单 kept in
step with the draws (`qr_watch`) and the `show --export` file and where it may be written (`export`). May import every layer below it, the use-cases
included; the pages it serves are rendered by `render`."""
