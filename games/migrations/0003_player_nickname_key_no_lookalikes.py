"""Give every seat the look-alike key of its nickname and allow one seat per key in a room,
so that "Host" and "Ηost" (Greek Eta) can no longer sit side by side."""

from django.db import migrations, models


def keys_fill(apps, schema_editor):
    """Store each seat's key; a seat whose name reads like an earlier seat's in the same room
    (seated before this rule) keeps its name, under a key no other name can have."""
    from games.rules.nicknames import nickname_key

    Player = apps.get_model("games", "Player")
    seen = set()
    for player in Player.objects.order_by("room_id", "id").only("room_id", "nickname"):
        key = nickname_key(player.nickname)
        if (player.room_id, key) in seen:
            key = f"{key}#{player.pk}"  # '#' is never in a nickname, so never in a key
        seen.add((player.room_id, key))
        Player.objects.filter(pk=player.pk).update(nickname_key=key)


class Migration(migrations.Migration):
    dependencies = [("games", "0002_bots_and_solo")]

    operations = [
        migrations.AddField(
            model_name="player",
            name="nickname_key",
            field=models.CharField(
                default="",
                help_text="what the nickname reads as (games.nicknames.nickname_key)",
                max_length=255,
            ),
            preserve_default=False,
        ),
        migrations.RunPython(keys_fill, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(
                fields=("room", "nickname_key"), name="no_lookalike_nicknames_in_room"
            ),
        ),
    ]
