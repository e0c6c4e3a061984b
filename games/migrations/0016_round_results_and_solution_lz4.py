"""A round's results and solution compressed with lz4 rather than PostgreSQL's default pglz:
ending a 10×10 round of 50 players × 100 words writes about 800 KB of results, and pglz took
half the round's end (about 100 ms on a 2-core machine; 50 with lz4). Only on a PostgreSQL
that has lz4 (14 and later, built with it); elsewhere nothing changes."""

from django.db import migrations

LZ4_KNOWN = (
    "SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' "
    "AND 'lz4' = ANY(enumvals)"
)
COLUMNS = ("results", "solution")


def rounds_compression(method):
    def apply(apps, schema_editor):
        connection = schema_editor.connection
        if connection.vendor != "postgresql":
            return
        with connection.cursor() as cursor:
            cursor.execute(LZ4_KNOWN)
            if cursor.fetchone() is None:
                return
            table = schema_editor.quote_name(apps.get_model("games", "Round")._meta.db_table)
            for column in COLUMNS:
                cursor.execute(
                    f"ALTER TABLE {table} ALTER COLUMN {schema_editor.quote_name(column)} "
                    f"SET COMPRESSION {method}"
                )

    return apply


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0015_help_texts_name_no_code"),
    ]

    operations = [
        migrations.RunPython(rounds_compression("lz4"), rounds_compression("pglz")),
    ]
