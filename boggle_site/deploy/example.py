"""The production example docs/operations.md shows: nginx's site for boggle.example.com, in
front of gunicorn on :8000 and two daphne workers on :8001 and :8002."""

from boggle_site.deploy.nginx import Tls, nginx_site


def example_site() -> str:
    """Return the site docs/operations.md shows (tests/site/test_deploy.py compares them)."""
    return nginx_site(
        listen="443",
        server_name="boggle.example.com",
        http=["127.0.0.1:8000"],
        ws=["127.0.0.1:8001", "127.0.0.1:8002"],
        static_root="/srv/boggle/static",
        tls=Tls(
            "/etc/letsencrypt/live/boggle.example.com/fullchain.pem",
            "/etc/letsencrypt/live/boggle.example.com/privkey.pem",
        ),
    )
