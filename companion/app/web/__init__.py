"""What the phones get (the table view and the seats): views, seats, addresses. The modules
still named companion/app/web_*.py move here with issue 39."""
